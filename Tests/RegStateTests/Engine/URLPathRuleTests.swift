import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting
import RegStateTestSupport

/// Issue 27: a value that becomes part of a URL is exactly what it says. One function (``URLPathSegment``) puts
/// every value from data into a path: it is checked here as a rule over hostile IDs, and through the engine's device
/// removal (IDs typed by the user or listed by a backend): what is refused sends nothing, what is sent is one
/// segment that decodes back to the ID.
@Suite("Every URL path built from data")
struct URLPathRuleTests {
    /// IDs no encoding can keep in one segment.
    static let refused = ["", ".", ".."]
    /// IDs that must arrive as exactly one segment, whatever they hold.
    static let hostile = ["/", "a/b", "../x", "./", "a?b=c", "a#f", "%2e", "%2e%2e", "%2F", "..%2f", "a;b", "a=b", " ",
                          "ü", "...", ". .", "\\", "a\u{0}b", "d\r\nX-Injected: 1", "devices", "?", "#", "%"]

    static let base = URL(string: "https://api.example.com/v1/devices")!

    @Test("a refused ID is a typed error before a URL exists", arguments: refused)
    func refusedSegment(_ id: String) {
        #expect(throws: id.isEmpty ? PathSegmentError.empty : .dotSegment(id)) {
            try URLPathSegment.appending([id], to: Self.base)
        }
    }

    @Test("any other ID is one segment that decodes back to it, with no query or fragment", arguments: hostile)
    func oneSegment(_ id: String) throws {
        let url = try URLPathSegment.appending([id], to: Self.base)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        #expect(components.percentEncodedQuery == nil)
        #expect(components.percentEncodedFragment == nil)
        #expect(url.host == "api.example.com")
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        #expect(segments.count == 4, "\(components.percentEncodedPath)")
        #expect(segments.dropLast().joined(separator: "/") == "/v1/devices")
        #expect(segments.last.flatMap { String($0).removingPercentEncoding } == id)
        // What an HTTP stack would resolve: no dot segment survives to be resolved.
        #expect(url.standardized.path == url.path)
    }

    @Test("devices remove: a refused ID sends nothing and says why; another is one segment under /v1/devices",
          arguments: refused + hostile)
    func engineRemoval(_ id: String) async throws {
        let harness = try EngineHarness()
        _ = try await harness.registeredService()
        let recording = RecordingTransport(base: harness.simulator.transport)
        let service = RegStateService(configuration: harness.configuration, dependencies: RegStateDependencies(
            store: harness.store, journal: harness.journal, transport: recording, clock: harness.clock))
        await service.start()
        let before = recording.requests.count
        do {
            try await service.removeDevice(id: id)
            Issue.record("\(id.debugDescription) was removed")
        } catch .invalidPathSegment(let refusal) {
            #expect(Self.refused.contains(id))
            #expect(refusal == (id.isEmpty ? .empty : .dotSegment(id)))
            #expect(recording.requests.count == before, "a refused ID sent a request")
            #expect(BackendError.invalidPathSegment(refusal).errorDescription?.contains("nothing was sent") == true)
            return
        } catch {
            #expect(!Self.refused.contains(id), "\(id.debugDescription): \(error)")
        }
        let deletes = recording.requests.dropFirst(before).filter { $0.method == .delete }
        let delete = try #require(deletes.first)
        #expect(deletes.count == 1)
        let path = try #require(URLComponents(url: delete.url, resolvingAgainstBaseURL: false)).percentEncodedPath
        #expect(path.hasPrefix(harness.world.backendURL.path + "/v1/devices/"))
        let last = try #require(path.split(separator: "/", omittingEmptySubsequences: false).last)
        #expect(String(last).removingPercentEncoding == id)
        #expect(path.split(separator: "/", omittingEmptySubsequences: false).count
            == (harness.world.backendURL.path + "/v1/devices/x").split(separator: "/", omittingEmptySubsequences: false).count)
    }
}
