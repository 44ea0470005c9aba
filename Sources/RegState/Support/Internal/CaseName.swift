import Foundation

/// The name of an enum value's case, never its values: the one way journals, diagrams, logs and rejections name an
/// event, a state or a failed check. For enums that reflect and describe themselves as the compiler makes them (no
/// `customMirror`, no `description`).
enum CaseName {
    /// `value`'s case: a case with values reflects as one child labelled with the case's name, one without prints as
    /// its name.
    static func of<Value>(_ value: Value) -> String {
        // A description or a mirror of the type's own would stand in for the name: only for enums without one.
        assert(!(value is any CustomStringConvertible || value is any CustomDebugStringConvertible
            || value is any TextOutputStreamable || value is any CustomReflectable), "\(Value.self) names itself")
        return Mirror(reflecting: value).children.first?.label ?? String(describing: value)
    }

    /// `value`'s case in snake case (`invalidIDToken` is `invalid_id_token`): the stable reason codes, each pinned by
    /// the tests, so renaming a case cannot change a code unnoticed.
    static func snakeCased<Value>(_ value: Value) -> String {
        let name = Array(of(value))
        var code = ""
        for (index, character) in name.enumerated() {
            // A word starts at a capital after a small letter, or at the last capital of an acronym (`IDToken`).
            if character.isUppercase, index > 0, !name[index - 1].isUppercase
                || (index + 1 < name.count && name[index + 1].isLowercase) {
                code += "_"
            }
            code += character.lowercased()
        }
        return code
    }
}
