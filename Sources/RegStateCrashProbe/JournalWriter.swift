import Foundation
import RegState

/// Records `count` events into the journal at `path` through the engine's own recorder (numbering, appending,
/// compacting), as one of several processes sharing that journal; prints "done" and exits 0, or exits 1 on error.
func runJournalWriter(journal path: String, count: Int) -> Never {
    do {
        let journal = try FileJournal(url: URL(fileURLWithPath: path))
        var recorder = JournalRecorder(journal: journal, clock: SystemClock(), logger: SilentLogger())
        recorder.openAtLaunch()
        for index in 0..<count {
            recorder.record(.launched(isNative: index % 2 == 0))
        }
        FileHandle.standardOutput.write(Data("done\n".utf8))
        exit(0)
    } catch {
        fail(error.localizedDescription)
    }
}
