import Foundation
import Testing
@testable import RegState
import RegStateTesting

/// The one mechanism every grant's pending record goes through (`TokenService+PendingGrant`): a removal that names
/// its grant leaves another grant's record, and another configuration's, for their owners.
@Suite("Pending grant records: one mechanism")
struct PendingGrantRecordTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let binding = CredentialBinding(OIDCConfiguration(issuer: URL(string: "https://idp.example.com")!,
                                                             clientID: "app", redirectURI: URL(string: "app:/cb")!))

    static func login(state: String, issuer: String = "https://idp.example.com") -> PendingLogin {
        let request = AuthorizationRequest(url: URL(fileURLWithPath: "/authorize"), state: state, nonce: "n",
                                           codeVerifier: "v", redirectURI: URL(fileURLWithPath: "/cb"), issuedAt: now)
        return PendingLogin(request: request, issuer: issuer, clientID: "app")
    }

    static func tokens(_ store: InMemorySecureStore) -> TokenService {
        TokenService(store: store, clock: ManualClock(start: now), binding: binding)
    }

    @Test("Given this configuration's login, when another login's removal names its own state, then the record stays; named by its state, it goes and is returned")
    func removalNamesItsGrant() async throws {
        let store = InMemorySecureStore()
        let tokens = Self.tokens(store)
        try await tokens.savePending(Self.login(state: "mine"))
        #expect(try await tokens.removePending(PendingLogin.self, id: "another") == nil)
        #expect(try await tokens.pending(PendingLogin.self)?.grantID == "mine")
        #expect(try await tokens.removePending(PendingLogin.self, id: "mine")?.grantID == "mine")
        #expect(try store.data(forKey: PendingLogin.storeKey) == nil)
    }

    @Test("Given another configuration's login, then it reads as none, a named removal leaves it, and only an unnamed one removes it")
    func anotherConfigurationsRecordStays() async throws {
        let store = InMemorySecureStore()
        let tokens = Self.tokens(store)
        try await TokenService(store: store).savePending(Self.login(state: "theirs", issuer: "https://other.example.com"))
        #expect(try await tokens.pending(PendingLogin.self) == nil)
        #expect(try await tokens.removePending(PendingLogin.self, id: "mine") == nil)
        #expect(try store.data(forKey: PendingLogin.storeKey) != nil)
        #expect(try await tokens.removePending(PendingLogin.self, id: nil) == nil)
        #expect(try store.data(forKey: PendingLogin.storeKey) == nil)
    }

    @Test("Given an undecodable record of each kind, then it reads as none and a named removal clears it")
    func undecodableRecordIsRemoved() async throws {
        let keys = [PendingLogin.storeKey, PendingStepUp.storeKey, PendingDeviceAuthorization.storeKey]
        let store = InMemorySecureStore(Dictionary(uniqueKeysWithValues: keys.map { ($0, Data("{not json".utf8)) }))
        let tokens = Self.tokens(store)
        #expect(try await tokens.pending(PendingLogin.self) == nil)
        #expect(try await tokens.pending(PendingStepUp.self) == nil)
        #expect(try await tokens.pending(PendingDeviceAuthorization.self) == nil)
        try await tokens.removePending(PendingLogin.self, id: "s")
        try await tokens.removePending(PendingStepUp.self, id: "s")
        try await tokens.removePending(PendingDeviceAuthorization.self, id: "d")
        for key in keys { #expect(try store.data(forKey: key) == nil, "\(key)") }
    }
}
