import Foundation
import RegState

/// The ``HTTPTransport`` of a ``Simulator``: hands each request to the simulator's actor and returns its answer.
struct InProcessTransport: HTTPTransport {
    let simulator: Simulator

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await simulator.serve(request)
    }
}
