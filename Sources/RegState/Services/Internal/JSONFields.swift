import Foundation

/// The members of a JSON object (from ``JSONValue/parse(_:limits:)``), read with the rules of the synthesized
/// `Decodable` (`decodeIfPresent` for optionals: absent or `null` is `nil`); a member of the wrong type sets
/// ``mismatch``, where the `Codable` reading would throw. The direct readers of the launch path use it to accept
/// exactly what `JSONDecoder` accepted, or nothing.
struct JSONFields {
    let object: [String: JSONValue]
    var mismatch = false

    init(_ object: [String: JSONValue]) { self.object = object }

    /// The members of `data` when it is one JSON object.
    init?(parsing data: Data) {
        guard data.count <= JSONLimits.responseBody.maximumBytes else { return nil }
        let parsed = data.withUnsafeBytes { raw in
            JSONValue.parse(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: 32)
        }
        guard case .success(.object(let object)) = parsed else { return nil }
        self.object = object
    }

    mutating func string(_ key: String) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: mismatch = true; return nil
        }
    }

    mutating func date(_ key: String) -> Date? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let value)?: return Date(timeIntervalSince1970: value)
        default: mismatch = true; return nil
        }
    }

    mutating func bool(_ key: String) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: mismatch = true; return nil
        }
    }

    mutating func raw<T: RawRepresentable>(_ key: String, as type: T.Type) -> T? where T.RawValue == String {
        guard let name = string(key) else { return nil }
        guard let value = T(rawValue: name) else { mismatch = true; return nil }
        return value
    }

    mutating func nested(_ key: String) -> JSONFields? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let members)?: return JSONFields(members)
        default: mismatch = true; return nil
        }
    }

    /// The single member of an enum's keyed form (`{"case":{...}}`), as the synthesized `Decodable` requires.
    var onlyMember: (key: String, value: JSONFields)? {
        guard object.count == 1, let (key, value) = object.first, case .object(let members) = value else { return nil }
        return (key, JSONFields(members))
    }

    /// ``Profile``'s synthesized form: `subject`, `issuer`, `emailVerified` required.
    mutating func profile(_ key: String) -> Profile? {
        guard var inner = nested(key) else { return nil }
        guard case .string(let subject)? = inner.object["subject"], case .string(let issuer)? = inner.object["issuer"],
              case .bool(let emailVerified)? = inner.object["emailVerified"]
        else { mismatch = true; return nil }
        let profile = Profile(subject: subject, issuer: issuer, email: inner.string("email"),
                              emailVerified: emailVerified, name: inner.string("name"), picture: inner.string("picture"))
        if inner.mismatch { mismatch = true }
        return profile
    }
}
