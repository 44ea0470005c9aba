import Foundation

/// The name of an enum value's case, never its values: the one way journals, diagrams, logs and rejections name an
/// event, a state or a failed check. For enums that reflect and describe themselves as the compiler makes them (no
/// `customMirror`, no `description`).
enum CaseName {
    /// `value`'s case: a case with values reflects as one child labelled with the case's name, one without prints as
    /// its name.
    static func of<Value>(_ value: Value) -> String {
        Mirror(reflecting: value).children.first?.label ?? String(describing: value)
    }
}
