import Foundation

/// Collects one stream of the child (or just its exit) and wakes waiters when the text changes or the stream ends.
///
/// `@unchecked Sendable` is safe: every stored property is read and written only while `lock` is held.
public final class StreamCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false
    /// Creates an empty collector.
    public init() {}

    private var waiters: [UUID: (predicate: @Sendable (String) -> Bool, continuation: CheckedContinuation<String, Never>)] = [:]

    /// The text so far.
    public var text: String {
        lock.withLock { String(decoding: data, as: UTF8.self) }
    }

    /// Whether the stream has ended.
    public var isFinished: Bool { lock.withLock { finished } }

    /// Reads `handle` to its end on a dedicated thread.
    public func drain(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                append(chunk)
            }
            finish()
        }
        thread.start()
    }

    /// Marks the stream as ended.
    public func finish() {
        let ready = lock.withLock { () -> [(CheckedContinuation<String, Never>, String)] in
            finished = true
            let text = String(decoding: data, as: UTF8.self)
            defer { waiters.removeAll() }
            return waiters.values.map { ($0.continuation, text) }
        }
        for (continuation, text) in ready { continuation.resume(returning: text) }
    }

    /// Waits until `predicate` holds for the text, the stream ends, or `timeout` passes; returns the text.
    public func wait(until predicate: @escaping @Sendable (String) -> Bool, timeout: TimeInterval) async -> String {
        let id = UUID()
        let watchdog = Task { [self] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            expire(id)
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            let immediate: String? = lock.withLock {
                let text = String(decoding: data, as: UTF8.self)
                if finished || predicate(text) { return text }
                waiters[id] = (predicate, continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func append(_ chunk: Data) {
        let ready = lock.withLock { () -> [(CheckedContinuation<String, Never>, String)] in
            data.append(chunk)
            let text = String(decoding: data, as: UTF8.self)
            let matched = waiters.filter { $0.value.predicate(text) }
            for id in matched.keys { waiters[id] = nil }
            return matched.values.map { ($0.continuation, text) }
        }
        for (continuation, text) in ready { continuation.resume(returning: text) }
    }

    private func expire(_ id: UUID) {
        let waiter = lock.withLock { () -> (CheckedContinuation<String, Never>, String)? in
            guard let waiter = waiters.removeValue(forKey: id) else { return nil }
            return (waiter.continuation, String(decoding: data, as: UTF8.self))
        }
        if let (continuation, text) = waiter { continuation.resume(returning: text) }
    }
}
