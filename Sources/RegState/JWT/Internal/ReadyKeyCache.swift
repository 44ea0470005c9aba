import Foundation

/// The ready keys of one ``JSONWebKeySet`` value, by position, each made once per crypto provider type, outside the
/// lock (racing callers may both make it; the first stored wins). `@unchecked Sendable`: keys only used under `lock`.
final class ReadyKeyCache: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [Int: (provider: ObjectIdentifier, result: Result<any VerificationKey, any Error>)] = [:]

    /// The cached result for `index` made by a provider of type `provider`, or the result of `make`, stored.
    func key(
        at index: Int, provider: ObjectIdentifier, make: () throws -> any VerificationKey
    ) -> Result<any VerificationKey, any Error> {
        lock.lock()
        let cached = keys[index]
        lock.unlock()
        if let cached, cached.provider == provider { return cached.result }
        let made = Result { try make() }
        lock.lock()
        defer { lock.unlock() }
        if let stored = keys[index], stored.provider == provider { return stored.result }
        keys[index] = (provider, made)
        return made
    }
}
