import Foundation

/// The offset between the device clock and the provider's clock, estimated from the provider's answers.
///
/// Every answer with an HTTP `Date` header (RFC 9110 §6.6.1) updates `offset = providerDate − deviceNow`; ID token
/// time claims are then checked on the provider's clock, so a device clock minutes or days wrong does not block
/// registration (the leeway covers the rest). Without `Date`, a fresh ID token's `iat` stands in. Token expiry counts
/// from receipt on the device clock, so it needs no correction. Offsets below ``negligible`` count as zero.
package final class ProviderClockEstimate: Sendable {
    /// Offsets below this many seconds (either way) are not applied.
    package static let negligible: TimeInterval = 5

    private struct Measurement {
        var offset: TimeInterval
        var source: ClockOffsetSource
    }

    private let state = LockedValue<Measurement?>(nil)
    /// The offset last reported to the journal (``takeJournalNote()``), `nil` before the first report.
    private let journaled = LockedValue<TimeInterval?>(nil)

    package init() {}

    /// The estimated offset to add to the device clock to read the provider's clock; zero until an answer with a
    /// `Date` header (or, without one, a fresh ID token's `iat`) was seen, and for offsets below ``negligible``.
    package var offset: TimeInterval {
        guard let measured = state.withLock({ $0?.offset }), abs(measured) >= Self.negligible else { return 0 }
        return measured
    }

    /// Whether the provider's `Date` header gave the estimate (then an ID token's `iat` is not used).
    package var isMeasuredByDateHeader: Bool { state.withLock { $0?.source == .dateHeader } }

    /// Where the current estimate came from, `nil` before the first.
    package var source: ClockOffsetSource? { state.withLock { $0?.source } }

    /// Records the `Date` header of `response`, received at device time `deviceNow`.
    ///
    /// - Returns: the new offset when it differs from the previously applied one by at least ``negligible`` seconds
    ///   (so the caller can say once that the clock is off); `nil` otherwise.
    @discardableResult
    package func observe(_ response: HTTPResponse, at deviceNow: Date) -> TimeInterval? {
        guard let value = response.header("Date"), let providerNow = Self.parseHTTPDate(value) else { return nil }
        return record(providerNow.timeIntervalSince(deviceNow), source: .dateHeader)
    }

    /// Records the `iat` of an ID token that just arrived from the token endpoint as the provider's clock, only while
    /// no `Date` header gave an estimate (the better source).
    ///
    /// - Returns: the new offset when it moved by at least ``negligible`` seconds; `nil` otherwise (or when a `Date`
    ///   header already gave the estimate).
    @discardableResult
    package func observeIssueTime(_ issuedAt: Date, at deviceNow: Date) -> TimeInterval? {
        guard !isMeasuredByDateHeader else { return nil }
        return record(issuedAt.timeIntervalSince(deviceNow), source: .idTokenIssueTime)
    }

    private func record(_ measured: TimeInterval, source: ClockOffsetSource) -> TimeInterval? {
        let before = offset
        state.withLock { $0 = Measurement(offset: measured, source: source) }
        let after = offset
        return abs(after - before) >= Self.negligible ? after : nil
    }

    /// What the journal should say now, if anything: the applied offset (whole seconds) and its source, the first
    /// time it is more than ``ClockOffsetSource/journalThreshold`` off, and again whenever it moved by more than that
    /// since the last note (back to zero included). Each note is handed out once.
    package func takeJournalNote() -> (seconds: Int, source: ClockOffsetSource)? {
        guard let source else { return nil }
        let current = offset
        return journaled.withLock { last in
            let moved = abs(current - (last ?? 0))
            guard moved > ClockOffsetSource.journalThreshold else { return nil }
            last = current
            return (Int(current.rounded()), source)
        }
    }

    /// The offset the journal reported last (read back from it at launch), so that a relaunch does not say again
    /// what the journal already says.
    package func journaledBefore(_ seconds: Int?) {
        journaled.withLock { $0 = seconds.map(TimeInterval.init) }
    }

    /// The provider's clock now, per the estimate.
    package func providerNow(deviceNow: Date) -> Date { deviceNow.addingTimeInterval(offset) }
}

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

/// The sentence logged when the device clock is found to be off from the provider's.
enum ClockOffsetNote {
    /// "The device clock is 120 s behind the provider's; time claims are checked on the provider's clock." (or
    /// "in step with" when the offset went back to zero).
    static func sentence(_ offset: TimeInterval) -> String {
        let seconds = Int(abs(offset).rounded())
        if seconds == 0 { return "The device clock is in step with the provider's again." }
        let direction = offset > 0 ? "behind" : "ahead of"
        return "The device clock is \(seconds) s \(direction) the provider's; time claims are checked on the "
            + "provider's clock."
    }
}
