import Foundation

/// The folded state of every journal entry up to `sequence`: the first line of a compacted journal,
/// `{"snapshot":{"seq":N,"state":{...}}}`, never a token (docs/Internals-Services.md).
struct JournalSnapshot: Equatable {
    /// The sequence number of the last entry folded in.
    var sequence: Int
    /// The fold of every entry up to ``sequence``.
    var state: RegState

    /// How a snapshot line starts (every entry line starts with another key).
    static let prefix = Data(#"{"snapshot":"#.utf8)

    func encoded() throws(JournalError) -> Data {
        var line = JSONText()
        guard line.value(.members(["snapshot": JSONValue.members(["seq": sequence, "state": state])])) else {
            throw .writeFailed("a snapshot cannot be encoded")
        }
        return line.data
    }

    /// The snapshot `line` holds, or `nil` when it is an ordinary entry (or not a snapshot at all, or one with a
    /// number out of range: a `seq` outside `0...JournalEntry.maximumSequence`, a time outside ``RecordedTime``).
    static func decode(_ line: Data) -> JournalSnapshot? {
        guard line.starts(with: Self.prefix),
              let fields = try? JSONFields(parsing: line).value("snapshot") as JSONFields,
              let snapshot = try? JournalSnapshot(sequence: fields.value("seq"), state: fields.value("state")),
              (0...JournalEntry.maximumSequence).contains(snapshot.sequence)
        else { return nil }
        return snapshot
    }
}
