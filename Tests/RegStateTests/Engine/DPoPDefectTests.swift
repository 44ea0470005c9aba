import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// One test per RFC 9449 §4.3 check: the library is made to send a defective proof through its test seam
/// (``DPoPContext/defect``, never by weakening the library), and the simulator refuses it.
@Suite("DPoP §4.3 checks enforced by the simulator")
struct DPoPDefectTests {
    static let tokenEndpointDefects: [DPoPProofDefect] = [
        .wrongType, .symmetricAlgorithm, .signedByAnotherKey, .privateKeyMember, .wrongMethod, .wrongURL,
        .staleIssueTime,
    ]

    @Test("a defective proof at the token endpoint: the code exchange is refused (invalid_dpop_proof), nothing stored",
          arguments: tokenEndpointDefects)
    func tokenEndpoint(_ defect: DPoPProofDefect) async throws {
        let dpop = try DPoPDevice()
        let service = dpop.launch()
        await service.start()
        service.runner.dpop.defect.withLock { $0 = defect }
        do {
            try await dpop.device.signIn(service)
            Issue.record("a defective proof was accepted")
        } catch RegStateServiceError.registration(.tokenRequestFailed(let error, _)) {
            #expect(error == "invalid_dpop_proof")
        }
        #expect(try dpop.store.data(forKey: TokenService.credentialsKey) == nil)
    }

    /// The resource refuses the proof; the transport renews once and retries. When the renewal itself is refused
    /// (the defect also spoils the token endpoint's proof) the 401 comes back; when the renewal succeeds (`ath` is
    /// checked only at resources) the retry is refused again and the call ends with the typed
    /// ``RegStateServiceError/rejectedAfterRenewal``. Either way no defective proof is accepted.
    @Test("a defective proof at the resource is refused: 401, or rejectedAfterRenewal when a renewal did not help",
          arguments: [DPoPProofDefect.wrongAccessTokenHash, .wrongMethod, .wrongURL, .staleIssueTime, .signedByAnotherKey])
    func resource(_ defect: DPoPProofDefect) async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        service.runner.dpop.defect.withLock { $0 = defect }
        do throws(RegStateServiceError) {
            let response = try await dpop.transport(service).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource))
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate")?.hasPrefix("DPoP") == true)
        } catch {
            #expect(error == .rejectedAfterRenewal)
            #expect(defect == .wrongAccessTokenHash, "only a defect the token endpoint does not check renews")
        }
    }

    @Test("a replayed jti: the second proof is refused")
    func replayedJTI() async throws {
        let dpop = try DPoPDevice()
        let service = try await dpop.registeredService()
        service.runner.dpop.defect.withLock { $0 = DPoPProofDefect.fixedJTI }
        let transport = dpop.transport(service)
        #expect(try await transport.send(HTTPRequest(method: .get, url: DPoPEngineTests.resource)).status == 200)
        #expect(try await transport.send(HTTPRequest(method: .get, url: DPoPEngineTests.resource)).status == 401)
    }

    @Test("a proof without the required nonce: use_dpop_nonce, retried once, never twice")
    func missingNonce() async throws {
        let dpop = try DPoPDevice(nonce: .required)
        let service = dpop.launch()
        await service.start()
        service.runner.dpop.defect.withLock { $0 = DPoPProofDefect.noNonce }
        await #expect(throws: RegStateServiceError.self) { try await dpop.device.signIn(service) }
        #expect(await dpop.tokenRequests() == 2)
    }

    @Test("without the seam the same world accepts the library's proofs")
    func wellFormed() async throws {
        let dpop = try DPoPDevice(nonce: .required)
        let service = try await dpop.registeredService()
        #expect(try await dpop.transport(service).send(HTTPRequest(method: .get, url: DPoPEngineTests.resource)).status == 200)
    }
}
