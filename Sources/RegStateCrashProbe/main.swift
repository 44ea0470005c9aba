// RegStateCrashProbe <dir>: rewrites a store and a journal in a loop until it is killed, for the crash tests.
//
// Each iteration i (resuming after the last journaled sequence number, so runs can accumulate in one directory):
// 1. stores key `record` = {"seq":i,"filler":"<4096 chars derived from i>","digest":"<CRC-32 of "i:filler">"},
// 2. appends the journal line {"seq":i},
// 3. every 25th i, rewrites the journal with replaceAll, keeping its last 10 lines.
// `RegStateCrashProbe --journal-writer <file> <count>` instead records <count> events through the engine's journal
// recorder into a journal other processes write at the same time (see JournalWriter.swift).
// `RegStateCrashProbe --hold-lock <file>` takes the App Group lock (a FileStoreLock) on <file>, prints "locked" and
// holds it until killed (see LockHolder.swift).
// It prints "ready\n" once, before the loop; on any error it prints the error to stderr and exits with status 1.
import Foundation
import RegState

/// One journal line of the probe.
struct ProbeLine: Codable {
    var seq: Int
}

/// The 4096 filler characters for `seq`, from a xorshift generator seeded by it.
func filler(for seq: Int) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var state = UInt64(truncatingIfNeeded: seq) &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes: [UInt8] = []
    bytes.reserveCapacity(4096)
    for _ in 0..<4096 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes.append(alphabet[Int(state & 63)])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The `record` value for `seq`.
func record(for seq: Int) -> Data {
    let text = filler(for: seq)
    let digest = CRC32.hex(Data("\(seq):\(text)".utf8))
    return Data(#"{"seq":\#(seq),"filler":"\#(text)","digest":"\#(digest)"}"#.utf8)
}

/// Writes `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("RegStateCrashProbe: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--journal-writer" {
    runJournalWriter(journal: arguments[2], count: Int(arguments[3]) ?? 0)
}
if arguments.count == 3, arguments[1] == "--hold-lock" {
    runLockHolder(path: arguments[2])
}
guard arguments.count == 2 else { fail("usage: RegStateCrashProbe <dir>") }
let root = URL(fileURLWithPath: arguments[1], isDirectory: true)

do {
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let store = try FileSecureStore(directory: root.appendingPathComponent("store", isDirectory: true))
    let journal = try FileJournal(url: root.appendingPathComponent("journal.log"))
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    var seq = try journal.read().lines.last.map { try decoder.decode(ProbeLine.self, from: $0).seq } ?? 0

    FileHandle.standardOutput.write(Data("ready\n".utf8))
    while true {
        seq += 1
        try store.set(record(for: seq), forKey: "record")
        try journal.append(try encoder.encode(ProbeLine(seq: seq)))
        if seq % 25 == 0 {
            try journal.replaceAll(with: Array(try journal.read().lines.suffix(10)))
        }
    }
} catch {
    fail(error.localizedDescription)
}
