/// Shell quoting for words a hint prints.
enum ShellWord {
    /// `word` as a POSIX shell reads it back: unchanged when it holds only safe characters, else in single quotes.
    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.utf8.allSatisfy(isSafe) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Letters, digits and `-_./:=@%+,`: the bytes a shell reads as themselves.
    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-_./:=@%+,".utf8.contains(byte)
        }
    }
}
