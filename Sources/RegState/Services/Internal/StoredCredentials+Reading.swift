import Foundation

extension StoredCredentials {
    /// Reads a credentials record with the strict byte-level JSON reader (``JSONValue/parse(_:limits:)``) instead of
    /// `JSONDecoder`, so a short process (`regstate status`) never loads the decoder's generic machinery; `nil` when
    /// the record is anything but exactly what the `Codable` form accepts (then `JSONDecoder` decides, as before).
    ///
    /// The rules are those of the synthesized `Decodable`: `stage` and `access_token` required, every other member
    /// optional (absent or `null` is `nil`), dates as seconds since 1970, unknown members ignored; a member of the
    /// wrong type is not accepted here. Tests compare both readings on old and current records.
    static func read(_ data: Data) -> StoredCredentials? {
        guard data.count <= JSONLimits.responseBody.maximumBytes else { return nil }
        let parsed = data.withUnsafeBytes { raw in
            JSONValue.parse(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: 16)
        }
        guard case .success(.object(let object)) = parsed,
              case .string(let stageName)? = object["stage"], let stage = Stage(rawValue: stageName),
              case .string(let accessToken)? = object["access_token"]
        else { return nil }
        var record = StoredCredentials(stage: stage, accessToken: accessToken)
        var fields = Fields(object)
        record.registrationType = fields.raw("registration_type", as: RegistrationType.self)
        record.profile = fields.profile("profile")
        record.idToken = fields.string("id_token")
        record.refreshToken = fields.string("refresh_token")
        record.expiresAt = fields.date("expires_at")
        record.issuedAt = fields.date("issued_at")
        record.refreshExpiresAt = fields.date("refresh_expires_at")
        record.securityToken = fields.string("security_token")
        record.securityTokenExpiresAt = fields.date("security_token_expires_at")
        record.tokenType = fields.string("token_type")
        record.renewalStartedAt = fields.date("renewal_started_at")
        record.issuer = fields.string("issuer")
        record.clientID = fields.string("client_id")
        return fields.mismatch ? nil : record
    }
}

/// The optional members of a JSON object, read with `decodeIfPresent`'s rules; a member of the wrong type sets
/// ``mismatch`` (the `Codable` reading would throw).
private struct Fields {
    let object: [String: JSONValue]
    var mismatch = false

    init(_ object: [String: JSONValue]) { self.object = object }

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

    mutating func raw<T: RawRepresentable>(_ key: String, as type: T.Type) -> T? where T.RawValue == String {
        guard let name = string(key) else { return nil }
        guard let value = T(rawValue: name) else { mismatch = true; return nil }
        return value
    }

    /// ``Profile``'s synthesized form: `subject`, `issuer`, `emailVerified` required.
    mutating func profile(_ key: String) -> Profile? {
        switch object[key] {
        case nil, .null?: return nil
        case .object(let members)?:
            var inner = Fields(members)
            guard case .string(let subject)? = members["subject"], case .string(let issuer)? = members["issuer"],
                  case .bool(let emailVerified)? = members["emailVerified"]
            else { mismatch = true; return nil }
            let profile = Profile(subject: subject, issuer: issuer, email: inner.string("email"),
                                  emailVerified: emailVerified, name: inner.string("name"),
                                  picture: inner.string("picture"))
            if inner.mismatch { mismatch = true }
            return profile
        default:
            mismatch = true
            return nil
        }
    }
}
