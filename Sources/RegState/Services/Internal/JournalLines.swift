import Foundation

/// What the engine reads from a journal's lines: its snapshot (the first line, if it is one), the entries after it,
/// the largest sequence number anywhere, and how many lines follow the snapshot; the entries are decoded only for
/// replay and compaction (docs/Internals-Services.md).
struct JournalLines {
    /// The snapshot the journal starts with, when it does (decoded only with `decodingEntries`).
    private(set) var snapshot: JournalSnapshot?
    /// The readable entries after the snapshot, in file order (only with `decodingEntries`).
    private(set) var entries: [JournalEntry] = []
    /// Lines after the snapshot that are not readable entries (without `decodingEntries`: lines without a `seq` in
    /// `1...JournalEntry.maximumSequence`).
    private(set) var unreadable = 0
    /// The largest sequence number of the snapshot and the readable entries; 0 for an empty journal.
    private(set) var lastSequence = 0
    /// Lines after the snapshot (readable or not): what compaction bounds.
    private(set) var tailCount: Int

    init(_ lines: [Data], decodingEntries: Bool) {
        var rest = lines[...]
        if let first = rest.first, first.starts(with: JournalSnapshot.prefix) {
            if decodingEntries {
                snapshot = JournalSnapshot.decode(first)
                lastSequence = snapshot?.sequence ?? 0
            } else {
                lastSequence = Self.number(in: first, under: "snapshot") ?? 0
            }
            rest = rest.dropFirst()
        }
        tailCount = rest.count
        for line in rest {
            if decodingEntries {
                guard let entry = try? JournalEntry.decode(line) else { unreadable += 1; continue }
                entries.append(entry)
                lastSequence = max(lastSequence, entry.sequence)
            } else {
                countNumber(of: line)
            }
        }
    }

    /// `JournalLines(lines, decodingEntries: false)`, reusing `earlier` when `lines` begins with exactly its lines: only
    /// the lines after them are read, so each line is read once however many appends read the journal.
    static func numbers(of lines: [Data], continuing earlier: (lines: [Data], numbers: JournalLines)?) -> JournalLines {
        guard let earlier, !earlier.lines.isEmpty, earlier.numbers.entries.isEmpty, lines.count >= earlier.lines.count,
            lines[..<earlier.lines.count].elementsEqual(earlier.lines)
        else { return JournalLines(lines, decodingEntries: false) }
        var numbers = earlier.numbers
        for line in lines[earlier.lines.count...] {
            numbers.tailCount += 1
            numbers.countNumber(of: line)
        }
        return numbers
    }

    /// Counts one line after the snapshot by its sequence number alone.
    private mutating func countNumber(of line: Data) {
        if let number = Self.number(in: line), (1...JournalEntry.maximumSequence).contains(number) {
            lastSequence = max(lastSequence, number)
        } else {
            unreadable += 1
        }
    }

    /// The state the snapshot and the entries fold to.
    var folded: RegState { entries.reduce(snapshot?.state ?? .unsettled, JournalRecorder.fold) }

    /// The whole number (below 2^53) at `seq` of the line's top-level object (or of its member `wrapper`), read
    /// without decoding the event or state beside it.
    static func number(in line: Data, under wrapper: String? = nil) -> Int? {
        var fields = try? JSONFields(parsing: line)
        if let wrapper { fields = try? fields?.value(wrapper) }
        return try? fields?.value("seq")
    }
}
