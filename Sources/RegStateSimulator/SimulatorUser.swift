import Foundation

/// A person the simulated identity provider knows: an email address, a display name and a stable subject.
///
/// Any email address can sign in (passwordless or through ``Simulator/authorize(_:as:)``); a user that is not
/// scripted is created on first sign-in. Scripted users exist so that tests and the CLI get predictable names.
public struct SimulatorUser: Sendable, Hashable, Codable {
    /// The email address, compared without regard to case.
    public var email: String
    /// The display name, the ID token's `name` claim.
    public var name: String
    /// The subject identifier, the ID token's `sub` claim; stable for the life of the world.
    public var subject: String

    /// Creates a user.
    ///
    /// - Parameters:
    ///   - email: The address; stored lowercased.
    ///   - name: The display name.
    ///   - subject: The `sub` claim; `nil` derives `email|<hex>` from the address, the same in every world.
    public init(email: String, name: String, subject: String? = nil) {
        let normalized = email.lowercased()
        self.email = normalized
        self.name = name
        self.subject = subject ?? Self.derivedSubject(for: normalized)
    }

    /// The default scripted users: Alice, Bob and Carol at `example.com`.
    public static let defaults: [SimulatorUser] = [
        SimulatorUser(email: "alice@example.com", name: "Alice Example"),
        SimulatorUser(email: "bob@example.com", name: "Bob Example"),
        SimulatorUser(email: "carol@example.com", name: "Carol Example"),
    ]

    /// A subject that depends only on the address (FNV-1a 64, hex), so a user created on first sign-in gets the same
    /// `sub` in every world and every process.
    static func derivedSubject(for email: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in email.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = Array("0123456789abcdef".utf8)
        let hex = stride(from: 60, through: 0, by: -4).map { digits[Int(truncatingIfNeeded: hash >> UInt64($0)) & 0xf] }
        return "email|" + String(decoding: hex, as: UTF8.self)
    }
}
