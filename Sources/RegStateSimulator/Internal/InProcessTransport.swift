import Foundation
import RegState

/// The ``HTTPTransport`` of a ``Simulator``: hands each request to the simulator's actor and returns its answer.
struct InProcessTransport: HTTPTransport {
    let simulator: Simulator

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await simulator.serve(request)
        let delay = await simulator.configuration.answerDelay
        if delay > 0 { try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
        return response
    }
}
