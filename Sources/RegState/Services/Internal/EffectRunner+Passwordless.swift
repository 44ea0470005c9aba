import Foundation

/// Passwordless registration: the emailed one-time code sent and verified.
extension EffectRunner {
    func sendPasswordlessCode(to email: String) async -> MachineEvent {
        // A passwordless begin supersedes a social login left pending before a relaunch.
        await discardPendingLogin()
        do {
            _ = try await keyForNewRegistration()
            try await provider.startPasswordless(email: email)
            return .authorizationIssued
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
    }

    func verifyPasswordlessCode(_ code: String, for email: String,
                                stillWanted: @Sendable () async -> Bool) async -> MachineEvent? {
        do {
            let key = try registrationKey()
            let response = try await provider.verifyPasswordless(email: email, code: code, proofKey: key)
            return await authenticate(with: response, nonce: nil, type: .passwordless, proofKey: key, stillWanted: stillWanted)
        } catch {
            return .registrationFailed(RegistrationFailure(error))
        }
    }
}
