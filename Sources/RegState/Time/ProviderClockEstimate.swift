import Foundation

/// The offset between the device clock and the provider's clock, estimated from the provider's answers.
///
/// Every answer the ``OIDCClient`` receives that carries an HTTP `Date` header (RFC 9110 §6.6.1) updates the
/// estimate: `offset = providerDate − deviceNow`. Time claims of ID tokens are then checked on the provider's clock
/// (`deviceNow + offset`), so a device clock that is minutes or days wrong does not block registration; the
/// validator's leeway covers what remains (the header's one-second resolution, network delay, the provider's own
/// drift). Token expiry is tracked from when each token was received on the device clock, so it needs no correction.
///
/// Offsets smaller than ``negligible`` are treated as zero (the header cannot measure them).
package final class ProviderClockEstimate: Sendable {
    /// Offsets below this many seconds (either way) are not applied.
    package static let negligible: TimeInterval = 5

    private let state = LockedValue<TimeInterval?>(nil)

    /// Creates an estimate with no observation yet (offset zero).
    package init() {}

    /// The estimated offset to add to the device clock to read the provider's clock; zero until an answer with a
    /// `Date` header arrived, and for offsets below ``negligible``.
    package var offset: TimeInterval {
        guard let measured = state.withLock({ $0 }), abs(measured) >= Self.negligible else { return 0 }
        return measured
    }

    /// Whether an estimate was made (an answer carried a usable `Date` header).
    package var isMeasured: Bool { state.withLock { $0 != nil } }

    /// Records the `Date` header of `response`, received at device time `deviceNow`.
    ///
    /// - Returns: the new offset when it differs from the previously applied one by at least ``negligible`` seconds
    ///   (so the caller can say once that the clock is off); `nil` otherwise.
    @discardableResult
    package func observe(_ response: HTTPResponse, at deviceNow: Date) -> TimeInterval? {
        guard let value = response.header("Date"), let providerNow = Self.parseHTTPDate(value) else { return nil }
        let before = offset
        let measured = providerNow.timeIntervalSince(deviceNow)
        state.withLock { $0 = measured }
        let after = offset
        return abs(after - before) >= Self.negligible ? after : nil
    }

    /// The provider's clock now, per the estimate.
    package func providerNow(deviceNow: Date) -> Date { deviceNow.addingTimeInterval(offset) }

    /// Formats `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form servers send.
    package static func httpDate(_ date: Date) -> String { formatter().string(from: date) }

    /// Parses an IMF-fixdate; `nil` for anything else (the obsolete forms are not accepted).
    package static func parseHTTPDate(_ value: String) -> Date? { formatter().date(from: value) }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}

/// A transport that hands every answer's `Date` header to a ``ProviderClockEstimate`` and passes it on unchanged.
struct ClockObservingTransport: HTTPTransport {
    let base: any HTTPTransport
    let estimate: ProviderClockEstimate
    let clock: any RegStateClock
    let onChange: @Sendable (TimeInterval) -> Void

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
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
