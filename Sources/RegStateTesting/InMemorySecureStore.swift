import Foundation
import RegState

/// A ``SecureStore`` in memory, for tests and previews: same key rules as ``FileSecureStore``, nothing persisted.
///
/// Its failure switches (``failNextWrite(_:)``, ``failNextRead(_:)``) let callers test what they do when storage
/// fails, which the file store cannot be made to do on demand.
///
/// It holds tokens, so its mirror (`dump`, a debugger's variable view) shows how many items it holds, never their values.
public final class InMemorySecureStore: SecureStore, CustomReflectable {
    /// The values plus the pending injected failures.
    private struct State {
        var values: [String: Data]
        var nextWriteError: StoreError?
        var nextReadError: StoreError?
        var reads: [String: Int] = [:]
    }

    private let state: LockedValue<State>
    /// This store's exclusive lock (within the process: the store is not shared with other processes).
    private let exclusive = ProcessLocalLock()

    /// The number of items, never their values.
    public var customMirror: Mirror {
        Mirror(self, children: ["items": state.withLock { $0.values.count }], displayStyle: .class)
    }

    /// Creates a store holding `initial` (its keys are taken as given).
    public init(_ initial: [String: Data] = [:]) {
        state = LockedValue(State(values: initial))
    }

    /// Takes this store's own lock (a store in memory is shared by the tasks of one process only).
    ///
    /// - Throws: ``StoreError/busy(waited:)`` when it is held longer than `timeout`.
    public func acquireExclusiveAccess(timeout: TimeInterval) async throws(StoreError) -> any StoreLease {
        try await exclusive.acquire(timeout: timeout)
    }

    /// Makes the next ``set(_:forKey:)`` or ``removeValue(forKey:)`` throw `error` without changing anything.
    public func failNextWrite(_ error: StoreError) {
        state.withLock { $0.nextWriteError = error }
    }

    /// Makes the next ``data(forKey:)`` throw `error`.
    public func failNextRead(_ error: StoreError) {
        state.withLock { $0.nextReadError = error }
    }

    /// How many times ``data(forKey:)`` has been asked for `key` since the store was created: what a test counts
    /// to show that many callers share one read instead of each reading (and decoding) the record.
    public func readCount(forKey key: String) -> Int {
        state.withLock { $0.reads[key] ?? 0 }
    }

    /// The value stored under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, or the error armed by ``failNextRead(_:)``.
    public func data(forKey key: String) throws(StoreError) -> Data? {
        try StoreKey.validate(key)
        return try state.withLock { state throws(StoreError) in
            state.reads[key, default: 0] += 1
            if let error = state.nextReadError {
                state.nextReadError = nil
                throw error
            }
            return state.values[key]
        }
    }

    /// Stores `data` under `key`.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, or the error armed by ``failNextWrite(_:)``.
    public func set(_ data: Data, forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        try state.withLock { state throws(StoreError) in
            try Self.consumeWriteError(&state)
            state.values[key] = data
        }
    }

    /// Removes the value under `key`; removing a missing key is not an error.
    ///
    /// - Throws: ``StoreError/invalidKey(_:)``, or the error armed by ``failNextWrite(_:)``.
    public func removeValue(forKey key: String) throws(StoreError) {
        try StoreKey.validate(key)
        try state.withLock { state throws(StoreError) in
            try Self.consumeWriteError(&state)
            state.values[key] = nil
        }
    }

    /// The keys that hold a value, sorted.
    public func keys() throws(StoreError) -> [String] {
        state.withLock { $0.values.keys.sorted() }
    }

    /// Throws and disarms the pending write failure, if any.
    private static func consumeWriteError(_ state: inout State) throws(StoreError) {
        if let error = state.nextWriteError {
            state.nextWriteError = nil
            throw error
        }
    }
}
