import Foundation
import RegState
import RegStateTesting
import RegStateTestSupport
import Testing

extension InteropTests {
    /// Sign in on another device (RFC 8628) against Glewlwyd 2.7.5, the only peer that answers `slow_down`: the
    /// library on the wall clock, every poll recorded on the wire, the user played by the real browser on Glewlwyd's
    /// own pages (the code form, the login form, the consent page). Screenshots go to
    /// `.build/artifacts/browser/glewlwyd-device`.
    @Suite("Glewlwyd: sign in on another device (real browser)", .peers([.glewlwyd]))
    struct GlewlwydDevice {
        /// Every device-code poll that left, with when and what Glewlwyd answered.
        final class PollLog: Sendable {
            let entries = LockedValue<[(at: Date, answer: String)]>([])
        }

        /// The library's URLSession transport, recording the device-code polls.
        struct RecordingPolls: HTTPTransport {
            let base: any HTTPTransport
            let log: PollLog

            func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
                let body = String(decoding: request.body ?? Data(), as: UTF8.self)
                guard body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code") else {
                    return try await base.send(request)
                }
                let left = Date()
                let response = try await base.send(request)
                let answer = response.status == 200 ? "tokens"
                    : (try? JSONValue.parse(response.body))?["error"]?.stringValue ?? "HTTP \(response.status)"
                log.entries.withLock { $0.append((left, answer)) }
                return response
            }
        }

        @Test("Glewlwyd: a stray poll of the same code makes Glewlwyd answer the first one slow_down; every later poll waits the widened interval (the fewest polls RFC 8628 allows), the browser approves, G then H")
        func slowDownHonoured() async throws {
            try await withPeer(.glewlwyd) { peer in
                let log = PollLog()
                let store = InMemorySecureStore()
                var configuration = RegStateConfiguration(
                    oidc: OIDCConfiguration(issuer: peer.issuer, clientID: peer.clientID,
                                            redirectURI: peer.customSchemeRedirect), backendURL: nil)
                configuration.dpop = .whenOffered
                let transport = URLSessionTransport(defaultTimeout: 30)
                let service = RegStateService(configuration: configuration, dependencies: RegStateDependencies(
                    store: store, journal: InMemoryJournal(), transport: RecordingPolls(base: transport, log: log)))
                #expect(await service.start() == .registrationRequired)
                let shown = try await service.beginDeviceRegistration()
                #expect(shown.interval == 5)
                #expect(shown.verificationURI.absoluteString == peer.issuer.absoluteString + "/device")

                // Another poller of the same code (a copy of the device code elsewhere) polls once, just before.
                let record = try #require(try store.data(forKey: "pending_device_authorization"))
                let deviceCode = try #require((try? JSONValue.parse(record))?["deviceCode"]?.stringValue)
                let stray = try await transport.send(.form(url: peer.issuer.appendingPathComponent("token"), parameters: [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode),
                    ("client_id", peer.clientID),
                ]))
                #expect((try? JSONValue.parse(stray.body))?["error"]?.stringValue == "authorization_pending")

                let completion = Task { try await service.completeDeviceRegistration() }
                // The user approves once the first poll was slowed down.
                while log.entries.withLock({ $0.isEmpty }) { try await Task.sleep(nanoseconds: 50_000_000) }
                let shots = try RealBrowser.artifacts("glewlwyd-device")
                try await withRealBrowser { browser in
                    _ = try await browser.approveDevice(shown.verificationURIComplete ?? shown.verificationURI,
                                                        userCode: shown.userCode, as: (username: "alice", password: "alice-password"),
                                                        screenshots: shots.appendingPathComponent("browser"))
                }
                let profile = try await completion.value
                #expect(profile.email == "alice@example.test")
                try await service.confirmRegistration()
                #expect(await service.state.letter == "H")

                let entries = log.entries.withLock { $0 }
                let answers = entries.map(\.answer)
                let gaps = zip(entries.dropFirst(), entries).map { $0.at.timeIntervalSince($1.at) }
                print("figure: Glewlwyd device polls \(answers), gaps \(gaps.map { String(format: "%.2f", $0) }) s")
                #expect(answers.first == "slow_down", "\(answers)")
                #expect(answers.last == "tokens", "\(answers)")
                #expect(answers.filter { $0 == "tokens" }.count == 1)
                #expect(!answers.dropFirst().contains("slow_down"), "only the stray poll's neighbour is slowed: \(answers)")
                // After one slow_down the interval is 10 s for every later poll: never sooner, and no later than the
                // interval plus the answer's round trip and the store's write (the fewest polls the RFC allows).
                for gap in gaps {
                    #expect(gap >= 10 && gap < 13, "gaps \(gaps)")
                }
                #expect(try store.data(forKey: "pending_device_authorization") == nil)
            }
        }

        @Test("Glewlwyd: the CLI's device-login, the browser approving on Glewlwyd's own pages (the code, the login), ends in H (G first), the credentials stored and the pending authorization gone")
        func cliApproved() async throws {
            try await withPeer(.glewlwyd) { peer in
                try await withRealBrowser { browser in
                    let shots = try RealBrowser.artifacts("glewlwyd-device-cli")
                    let approved = try await DeviceAuthorization.deviceLogin({ store in
                        ["device-login", "--json", "--store", store.path, "--issuer", peer.issuer.absoluteString,
                         "--client-id", peer.clientID]
                    }, browser: browser, decision: "accept", shots: shots)
                    #expect(approved.shown["verificationURI"]?.stringValue == peer.issuer.absoluteString + "/device")
                    #expect(approved.run.status == 0, "stderr: \(approved.run.stderr.suffix(1_500))")
                    #expect(DeviceAuthorization.letters(approved.run.stdout) == ["D", "G", "H"],
                            "stdout: \(approved.run.stdout)")
                    #expect(approved.run.stdout.contains("\"issuer\":\"\(peer.issuer.absoluteString)\""))
                    #expect(approved.credentials && !approved.pending)
                }
            }
        }

        @Test("Glewlwyd: a code nobody approves ends the CLI's device-login in F code_expired at its expiry, nothing stored")
        func expiryInCLI() async throws {
            var knobs = PeerKnobs()
            knobs.deviceCodeLifetime = 8
            try await withPeer(.glewlwyd, knobs) { peer in
                let store = FileManager.default.temporaryDirectory
                    .appendingPathComponent("interop-device-expiry-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: store) }
                let run = try await CLIProcess.run(["device-login", "--json", "--store", store.path,
                                                    "--issuer", peer.issuer.absoluteString, "--client-id", peer.clientID])
                #expect(run.status == 1, "stderr: \(run.stderr.suffix(1_500))")
                let objects = run.stdout.split(separator: "\n").compactMap { (try? JSONValue.parse(Data($0.utf8)))?.objectValue }
                #expect(objects.contains { $0["event"]?.stringValue == "signInOnAnotherDevice" })
                #expect(objects.last?["reason"]?.stringValue == "code_expired", "stdout: \(run.stdout)")
                for record in ["credentials", "pending_device_authorization"] {
                    #expect(!FileManager.default.fileExists(atPath: store.appendingPathComponent("secure/\(record)").path))
                }
            }
        }
    }
}
