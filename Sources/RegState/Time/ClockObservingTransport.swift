import Foundation

/// A transport that hands every answer's `Date` header to a ``ProviderClockEstimate`` and passes it on unchanged.
struct ClockObservingTransport: HTTPTransport {
    let base: any HTTPTransport
    let estimate: ProviderClockEstimate
    let clock: any RegStateClock
    let onChange: @Sendable (TimeInterval) -> Void

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let response = try await base.send(request)
        if let changed = estimate.observe(response, at: clock.now()) { onChange(changed) }
        return response
    }
}
