import Foundation

extension SimulatedFileSystem {
    /// Percent of writes to the shared journal that are where their process dies (part of the line written, or none).
    static let sharedAppendCrashPercent = 4

    /// In the shared-journal world (until the heal), arms a crash (not a power loss) at the next system call
    /// when `fd` is a descriptor for the shared journal and the seed says so: the write about to be made to it dies part-way, leaving a torn
    /// line for the other processes, which go on appending, to repair.
    func armSharedAppendCrash(_ fd: Int32) {
        lock.withLock {
            guard sharesJournal, sharedAppendCrashes, let file = open[fd], file.path.hasSuffix("/journal-shared.log"),
                random.chance(Self.sharedAppendCrashPercent)
            else { return }
            crashAt = calls + 1
            forcedPowerLoss = false
        }
    }
}
