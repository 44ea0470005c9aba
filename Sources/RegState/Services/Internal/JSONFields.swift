import Foundation

/// The members of a JSON object, read as the synthesized `Decodable` of earlier versions read them (unknown members
/// ignored, absent or `null` optional, anything else wrong ``Damaged``): the one reader of journal and credentials.
struct JSONFields: RecordValue {
    /// A record that is not what RegState writes (damaged, or a newer version's).
    struct Damaged: Error {}

    let object: [String: JSONValue]

    init(json: JSONValue) throws(Damaged) { object = try json.objectValue.orDamaged() }

    var json: JSONValue { .object(object) }

    /// The members of `data` when it is one JSON object.
    init(parsing data: Data) throws(Damaged) {
        guard let value = try? JSONValue.parse(data, limits: .responseBody) else { throw Damaged() }
        try self.init(json: value)
    }

    /// An enum case's form, `{"name":{members}}`: exactly one member, whose value is an object.
    static func tagged(_ json: JSONValue) throws(Damaged) -> (name: String, fields: JSONFields) {
        let object = try JSONFields(json: json).object
        guard object.count == 1, let (name, value) = object.first else { throw Damaged() }
        return (name, try JSONFields(json: value))
    }

    /// The member `key`, required (`_0`: an enum case's single unlabelled value).
    func value<Value: RecordValue>(_ key: String = "_0") throws(Damaged) -> Value {
        try optional(key).orDamaged()
    }

    /// The member `key`, `nil` when it is absent or `null`.
    func optional<Value: RecordValue>(_ key: String) throws(Damaged) -> Value? {
        guard let json = object[key], json != .null else { return nil }
        return try Value(json: json)
    }
}
