import Foundation
import Testing
@testable import RegState
import RegStateSimulator

/// The IMF-fixdate (RFC 9110 §5.6.7) the provider's `Date` header carries, written and read by hand.
@Suite("HTTP date: the IMF-fixdate, both ways")
struct HTTPDateTests {
    @Test("RFC 9110's own example reads as its instant, and that instant writes back as the example")
    func knownAnswer() {
        let instant = Date(timeIntervalSince1970: 784_111_777)
        #expect(ProviderClockEstimate.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == instant)
        #expect(ProviderClockEstimate.httpDate(instant) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test("every second of a day and every day of four years around a leap day round-trip", arguments: [
        1_582_934_400.0, 951_782_400, 4_107_456_000, 0, 1_800_000_000,
    ])
    func roundTrips(start: TimeInterval) {
        for offset in stride(from: 0.0, to: 4 * 366 * 86_400, by: 86_400 + 3_661) {
            let instant = Date(timeIntervalSince1970: start + offset)
            #expect(ProviderClockEstimate.parseHTTPDate(ProviderClockEstimate.httpDate(instant)) == instant)
        }
    }

    @Test("anything but an IMF-fixdate is nil", arguments: [
        "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Nov 1994 08:49:60 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nvo 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT ", "Sun, 06 Nov 1994 08:49:37 GMT\n",
        "Sun, 0x Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
    ])
    func refused(text: String) {
        #expect(ProviderClockEstimate.parseHTTPDate(text) == nil)
    }
}
