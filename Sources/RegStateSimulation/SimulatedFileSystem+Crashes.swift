import Foundation
import RegState

/// Crashes and power losses: when they come, whom they kill, and what the disk holds after one.
extension SimulatedFileSystem {
    /// How often crashes come: when set above zero, a crash is armed at a seeded index among the next
    /// `1000 / percent` system calls, and armed again after each one fires.
    public var crashPercent: Int {
        get { lock.withLock { crashRate } }
        set { lock.withLock { crashRate = newValue; armCrash() } }
    }

    /// Arms a crash at exactly the `index`-th system call from now (1 = the next one): for tests.
    public func crash(atCall index: Int, powerLoss: Bool) {
        lock.withLock {
            crashAt = calls + index
            forcedPowerLoss = powerLoss
        }
    }

    /// Ends `incarnation`: its descriptors close, its locks are released, it can make no more calls.
    public func kill(_ incarnation: Int) {
        lock.withLock { killLocked(incarnation) }
    }

    /// Cuts the power now: every process dies, and only what was durable (plus a seeded prefix of the rest) stays.
    public func cutPower() {
        let killed = lock.withLock { powerLossLocked() }
        afterCrash(killed: killed, note: "fs    POWER LOSS (world)")
    }

    /// Caller holds `lock`.
    func armCrash() {
        guard crashRate > 0 else {
            crashAt = nil
            return
        }
        crashAt = calls + 1 + random.below(max(2, 1000 / crashRate))
    }

    /// Caller holds `lock`.
    func killLocked(_ incarnation: Int) {
        dead.insert(incarnation)
        for (fd, file) in open where file.incarnation == incarnation {
            if locks[file.node] == fd { locks[file.node] = nil }
            open[fd] = nil
        }
    }

    /// Caller holds `lock`. Reverts to what was durable plus seeded prefixes; returns the incarnations killed.
    func powerLossLocked() -> [Int] {
        let before = watchedContents()
        var kept = durableNames
        let keep = random.below(pendingNames.count + 1)
        for entry in pendingNames.prefix(keep) { Self.apply(entry.change, to: &kept) }
        pendingNames = []
        names = kept
        durableNames = kept
        for id in nodes.keys.sorted() {
            guard var node = nodes[id] else { continue }
            var data = node.durable
            let applied = random.below(node.pending.count + 1)
            for (index, change) in node.pending.prefix(applied).enumerated() {
                var change = change
                // The last change kept may be cut short: a torn write.
                if index == applied - 1, random.chance(50), case .write(let offset, let bytes) = change {
                    change = .write(offset: offset, bytes: Array(bytes.prefix(random.below(bytes.count + 1))))
                }
                Self.apply(change, to: &data)
            }
            node.data = data
            node.durable = data
            node.pending = []
            nodes[id] = node
        }
        let reachable = Set(names.values)
        nodes = nodes.filter { reachable.contains($0.key) }
        checkSurvivors(before: before)
        open = [:]
        locks = [:]
        let killed = known.subtracting(dead).sorted()
        dead.formUnion(known)
        return killed
    }

    static func apply(_ change: NameChange, to names: inout [String: Int]) {
        switch change {
        case .link(let path, let id): names[path] = id
        case .unlink(let path): names[path] = nil
        case .rename(let from, let to):
            names[to] = names[from]
            names[from] = nil
        }
    }

    /// Applies `change` to `data`.
    static func apply(_ change: FileChange, to data: inout [UInt8]) {
        switch change {
        case .write(let offset, let bytes):
            if data.count < offset + bytes.count { data += [UInt8](repeating: 0, count: offset + bytes.count - data.count) }
            data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        case .truncate(let length):
            if data.count > length { data.removeSubrange(length...) } else { data += [UInt8](repeating: 0, count: length - data.count) }
        }
    }

    /// Tells the world whom a crash killed and what the store holds now.
    func afterCrash(killed: [Int], note: String, powerLoss: Bool = true) {
        ledger.note(note)
        let violations = lock.withLock { () -> [String] in
            defer { pendingViolations = [] }
            return pendingViolations
        }
        for violation in violations { ledger.violation("durable-writes", violation) }
        ledger.diskMishap()
        for incarnation in killed { onCrash(incarnation) }
        // Keychain items are not files here: a power loss leaves every one a call wrote.
        guard holdsStore else { return }
        reportCredentials(by: nil)
        // What a write put on the disk before the power went may be gone: the disk knows only what it holds now.
        if powerLoss { ledger.storageReverted(to: contents(credentialsPath)) }
    }
}
