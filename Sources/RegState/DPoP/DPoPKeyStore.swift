import Foundation

/// Keeps the installation's one DPoP key in the secure store beside the credentials it binds, and nowhere else; a
/// torn record is a typed error, never silently replaced (the record's form: docs/Internals-Machine.md).
package struct DPoPKeyStore: Sendable {
    package static let recordKey = "dpop-key"
    /// The secure-store key of the key a registration in progress proves with, until its tokens are stored: a
    /// registration started in one process must not replace the key of the session another process is using.
    package static let registrationRecordKey = "dpop-key.registration"

    private let store: any SecureStore
    private let crypto: any CryptoProvider
    private let key: String

    /// A key store over `store`, keeping its record under `recordKey`.
    package init(store: any SecureStore, crypto: any CryptoProvider, recordKey: String = DPoPKeyStore.recordKey) {
        self.store = store
        self.crypto = crypto
        key = recordKey
    }

    /// The stored key, or `nil` when there is none.
    /// - Throws: ``DPoPError`` when a record exists but is torn, of another curve, or the store fails.
    package func load() throws(DPoPError) -> DPoPKey? {
        guard let data = try onStore("read", { try store.data(forKey: key) }) else { return nil }
        return try decode(data)
    }

    /// A fresh key, stored in place of any previous one (a new registration, logout, clear-state).
    package func replace() throws(DPoPError) -> DPoPKey {
        let fresh = try DPoPKey.generate(crypto: crypto)
        try save(fresh)
        return fresh
    }

    /// Stores `dpopKey` in place of any previous one (a registration's key becoming the session's).
    package func save(_ dpopKey: DPoPKey) throws(DPoPError) {
        var fields: [String: JSONValue] = ["version": 1, "kty": "EC", "crv": "P-256"]
        if let reference = dpopKey.privateKey.secureEnclaveReference {
            fields["se"] = .string(Base64URL.encode(reference))
        } else {
            fields["pkcs8"] = .string(Base64URL.encode(dpopKey.privateKey.pkcs8DER))
        }
        try onStore("written") { try store.set(JSONValue.object(fields).serialized(), forKey: key) }
    }

    /// Removes the key (logout, clear-state); removing a missing key is not an error.
    package func remove() throws(DPoPError) {
        try onStore("removed") { try store.removeValue(forKey: key) }
    }

    /// Runs `body` on the store; a failure is ``DPoPError/storeFailed(reason:)``: the record cannot be `done`.
    private func onStore<T>(_ done: String, _ body: () throws -> T) throws(DPoPError) -> T {
        do {
            return try body()
        } catch {
            throw .storeFailed(reason: "the key record cannot be \(done)")
        }
    }

    private func decode(_ data: Data) throws(DPoPError) -> DPoPKey {
        let record: JSONValue
        do {
            record = try JSONValue.parse(data, limits: .joseSegment)
        } catch {
            throw .keyRecordUnreadable(reason: "not a JSON record")
        }
        guard record["version"]?.intValue == 1 else { throw .keyRecordUnreadable(reason: "unknown record version") }
        guard let curve = record["crv"]?.stringValue, record["kty"]?.stringValue == "EC" else {
            throw .keyRecordUnreadable(reason: "kty or crv missing")
        }
        guard curve == "P-256" else { throw .keyRecordWrongCurve(curve: String(curve.prefix(16))) }
        let privateKey: P256PrivateKey
        if let encoded = record["se"]?.stringValue {
            guard let reference = Base64URL.decode(encoded), !reference.isEmpty else {
                throw .keyRecordUnreadable(reason: "Secure Enclave reference not base64url")
            }
            privateKey = P256PrivateKey(secureEnclaveReference: reference)
        } else {
            guard let encoded = record["pkcs8"]?.stringValue, let der = Base64URL.decode(encoded), !der.isEmpty else {
                throw .keyRecordUnreadable(reason: "private key missing or not base64url")
            }
            privateKey = P256PrivateKey(pkcs8DER: der)
        }
        do {
            return try DPoPKey(privateKey: privateKey, crypto: crypto)
        } catch {
            throw .keyRecordUnreadable(reason: "the private key is not a usable P-256 key")
        }
    }
}
