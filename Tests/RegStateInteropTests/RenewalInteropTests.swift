import Foundation
import RegState
import Testing
import RegStateTestSupport

extension InteropTests {
    /// Renewal against a provider issuing 2-second access tokens, with refresh-token rotation and reuse detection on.
    ///
    /// The app's clock is a manual one: the library decides a token has expired when the clock passes `expires_in`; the
    /// provider rotates whenever it is asked. So nothing sleeps, and the provider's reuse detection is what would catch
    /// a refresh token sent twice.
    @Suite("Renewal with rotating refresh tokens")
    struct Renewal {
        static let knobs = PeerKnobs(accessTokenLifetime: 2)

        @Test("a 2-second token: B until it expires, then renewal gives Active C, stores the rotated refresh token and never sends the old one again",
              .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func renewalRotates(kind: PeerKind) async throws {
            try await withPeer(kind, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, gracePeriod: 1)
                _ = try await device.register()
                let first = try await device.storedRefreshToken()
                let lifetime = try #require(await device.tokens.storedSession()).expiresAt.timeIntervalSince(device.clock.now())
                #expect(abs(lifetime - 2) < 0.001, "the provider's expires_in is 2")

                // Within its two seconds the stored token is used as is: B.
                #expect(await device.launch().start().letter == "B")
                #expect(device.transport.refreshTokensSent.isEmpty)

                device.clock.advance(by: 2)
                let service = device.launch()
                let tape = await EventTape(service)
                #expect(await service.start().letter == "C")
                #expect(await tape.titles(atLeast: 1) == ["Active C"])
                tape.close()
                let second = try await device.storedRefreshToken()
                #expect(second != first, "the provider rotates: the stored refresh token must be the new one")
                #expect(device.transport.refreshTokensSent == [first])

                // Twice more on the running service: each grant presents the token the previous one returned.
                device.clock.advance(by: 2)
                _ = try await service.validAccessToken().token
                let third = try await device.storedRefreshToken()
                device.clock.advance(by: 2)
                _ = try await service.validAccessToken().token
                let fourth = try await device.storedRefreshToken()
                #expect(device.transport.refreshTokensSent == [first, second, third])
                #expect(Set([first, second, third, fourth]).count == 4)
                #expect(await service.state.letter == "C")

                // The provider agrees: four tokens issued in one family, three retired by rotation, the newest alive —
                // reuse detection would have revoked all four.
                #expect(try await peer.refreshTokenLedger() == .init(issued: 4, revoked: 3))
                #expect(try await peer.isRevoked(refreshToken: fourth) == false)
            }
        }

        @Test("50 concurrent renewals of an expired token: one refresh reaches the provider, reuse detection never fires, the session still works",
              .provider(.django, .glewlwyd, .idpyoidc), arguments: PeerKind.selecting(PeerKind.allCases))
        func fiftyConcurrentRenewals(kind: PeerKind) async throws {
            try await withPeer(kind, Self.knobs) { peer in
                let device = InteropDevice(peer: peer, gracePeriod: 1)
                let service = try await device.register()
                let first = try await device.storedRefreshToken()
                device.clock.advance(by: 3)
                let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<50 { group.addTask { try await service.validAccessToken().token } }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(tokens.count == 50)
                #expect(Set(tokens).count == 1, "every caller gets the one renewed token")
                #expect(device.transport.refreshTokensSent == [first], "exactly one refresh request on the wire")
                #expect(await service.state.letter == "C")
                // Provider side: one rotation, the family intact.
                #expect(try await peer.refreshTokenLedger() == .init(issued: 2, revoked: 1))
                let second = try await device.storedRefreshToken()
                #expect(try await peer.isRevoked(refreshToken: second) == false)

                // The session still works: the next renewal succeeds with the rotated token. (Userinfo with a 2-second
                // access token would depend on the wall clock; the outage tests check userinfo after a renewal.)
                device.clock.advance(by: 3)
                _ = try await service.validAccessToken().token
                #expect(device.transport.refreshTokensSent == [first, second])
                #expect(await service.state.letter == "C")
                #expect(try await peer.refreshTokenLedger() == .init(issued: 3, revoked: 2))
            }
        }
    }
}
