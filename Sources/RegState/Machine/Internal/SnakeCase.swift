/// Reason codes are the snake_case of the journal's tags (`invalidIDToken` → `invalid_id_token`), so a code cannot
/// drift from the case it names; `ReasonCodeTests` pins every code.
enum SnakeCase {
    /// `name` with `_` before each capital that follows a lowercase letter or ends an acronym (`IDToken` → `id_token`).
    static func of(_ name: String) -> String {
        let letters = Array(name)
        var result = ""
        for (index, letter) in letters.enumerated() {
            if letter.isUppercase, index > 0, !letters[index - 1].isUppercase
                || (index + 1 < letters.count && letters[index + 1].isLowercase) {
                result += "_"
            }
            result += letter.lowercased()
        }
        return result
    }

    /// The snake_case of the tag `value` is journaled under.
    static func tag(of value: some RecordValue) -> String {
        of(value.json.objectValue?.keys.first ?? "")
    }
}
