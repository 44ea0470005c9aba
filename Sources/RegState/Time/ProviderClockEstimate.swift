import Foundation

/// The offset between the device clock and the provider's, from the answers' `Date` headers (or a fresh ID token's
/// `iat`), so ID-token times are checked on the provider's clock (docs/Internals-Machine.md).
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

    /// Where the current estimate came from, `nil` before the first.
    package var source: ClockOffsetSource? { state.withLock { $0?.source } }

    /// Records the `Date` header of `response`, received at device time `deviceNow`.
    /// - Returns: the new offset when it moved by at least ``negligible`` seconds; `nil` otherwise.
    @discardableResult
    package func observe(_ response: HTTPResponse, at deviceNow: Date) -> TimeInterval? {
        guard let value = response.header("Date"), let providerNow = Self.parseHTTPDate(value) else { return nil }
        return record(providerNow.timeIntervalSince(deviceNow), source: .dateHeader)
    }

    /// Records a fresh ID token's `iat` as the provider's clock while no `Date` header gave an estimate.
    /// - Returns: the new offset when it moved by at least ``negligible`` seconds; `nil` otherwise.
    package func observeIssueTime(_ issuedAt: Date, at deviceNow: Date) -> TimeInterval? {
        guard source != .dateHeader else { return nil }
        return record(issuedAt.timeIntervalSince(deviceNow), source: .idTokenIssueTime)
    }

    private func record(_ measured: TimeInterval, source: ClockOffsetSource) -> TimeInterval? {
        let before = offset
        state.withLock { $0 = Measurement(offset: measured, source: source) }
        let after = offset
        return abs(after - before) >= Self.negligible ? after : nil
    }

    /// The offset (whole seconds) and source the journal should note now, once: when it moved by more than
    /// ``ClockOffsetSource/journalThreshold`` since the last note (back to zero included).
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

    package func providerNow(deviceNow: Date) -> Date { deviceNow.addingTimeInterval(offset) }
}
