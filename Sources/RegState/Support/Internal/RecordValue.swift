import Foundation

/// A value in RegState's records (journal lines, the credentials record) in its one JSON form: the one earlier
/// versions' synthesized `Codable` gave it, so every record they wrote still reads (docs/Internals-Toolbox.md).
protocol RecordValue {
    /// The value's JSON form, written with ``JSONText/value(_:)`` (members sorted, as `JSONEncoder` sorted them).
    var json: JSONValue { get }
    /// Reads the value's JSON form; members the form does not know are ignored.
    ///
    /// - Throws: ``JSONFields/Damaged`` when a member is missing, of the wrong type or out of range.
    init(json: JSONValue) throws(JSONFields.Damaged)
}

extension RecordValue where Self: RawRepresentable, RawValue == String {
    var json: JSONValue { .string(rawValue) }
    init(json: JSONValue) throws(JSONFields.Damaged) {
        self = try json.stringValue.flatMap(Self.init(rawValue:)).orDamaged()
    }
}

extension JSONValue: RecordValue {
    var json: JSONValue { self }
    init(json: JSONValue) { self = json }

    /// An object of the members that are present: an absent optional is left out, as `encodeIfPresent` did.
    static func members(_ members: KeyValuePairs<String, (any RecordValue)?>) -> JSONValue {
        .object(Dictionary(members.compactMap { key, value in value.map { (key, $0.json) } }) { first, _ in first })
    }

    /// An enum case's form, `{"name":{members}}`.
    static func tagged(_ name: String, _ members: KeyValuePairs<String, (any RecordValue)?> = [:]) -> JSONValue {
        .object([name: .members(members)])
    }
}

extension String: RecordValue {
    var json: JSONValue { .string(self) }
    init(json: JSONValue) throws(JSONFields.Damaged) { self = try json.stringValue.orDamaged() }
}

extension Bool: RecordValue {
    var json: JSONValue { .bool(self) }
    init(json: JSONValue) throws(JSONFields.Damaged) { self = try json.boolValue.orDamaged() }
}

extension Int: RecordValue {
    var json: JSONValue { .number(Double(self)) }
    init(json: JSONValue) throws(JSONFields.Damaged) { self = try json.intValue.orDamaged() }
}

extension Double: RecordValue {
    var json: JSONValue { .number(self) }
    init(json: JSONValue) throws(JSONFields.Damaged) { self = try json.numberValue.orDamaged() }
}

/// Seconds since 1970, read within ``RecordedTime``'s range.
extension Date: RecordValue {
    var json: JSONValue { .number(timeIntervalSince1970) }
    init(json: JSONValue) throws(JSONFields.Damaged) { self = try json.dateValue.orDamaged() }
}

extension Optional {
    /// The value, or ``JSONFields/Damaged`` when there is none: a record's required member.
    func orDamaged() throws(JSONFields.Damaged) -> Wrapped {
        guard let self else { throw JSONFields.Damaged() }
        return self
    }
}
