import Foundation
import RegState
import RegStateSimulator

/// The embedded simulator, opened on its first use.
///
/// Opening it reads the persisted world (users, token families, the RSA signing key) and readies the key: work a
/// command that settles from the stored record alone — `status` with a usable token — never needs. The engine gets
/// ``transport``, which opens the world when the first request is sent; the walkthrough, which plays the user, opens
/// it at once with ``open()``.
final class LazySimulator: Sendable {
    private let make: @Sendable () throws -> Simulator
    private let opened = LockedValue<Simulator?>(nil)

    /// A simulator that `make` opens when it is first needed.
    init(_ make: @escaping @Sendable () throws -> Simulator) {
        self.make = make
    }

    /// The simulator, opened now if it was not yet; one instance for the whole run.
    ///
    /// - Throws: what opening the world throws (``SimulatorError``); the next call tries again.
    func open() throws -> Simulator {
        try opened.withLock { opened in
            if let opened { return opened }
            let simulator = try make()
            opened = simulator
            return simulator
        }
    }

    /// A transport that opens the simulator on the first request and then hands every request to it. A world that
    /// cannot be opened fails the request as an unreachable server, with the reason.
    var transport: any HTTPTransport { Transport(simulator: self) }

    private struct Transport: HTTPTransport {
        let simulator: LazySimulator

        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            let opened: Simulator
            do {
                opened = try simulator.open()
            } catch {
                throw .connectionFailed("the simulator's world cannot be opened: \(error.localizedDescription)")
            }
            return try await opened.transport.send(request)
        }
    }
}
