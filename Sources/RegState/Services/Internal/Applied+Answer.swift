import Foundation

extension Applied {
    /// What an effect did, beyond the events it fed back, that the public call which asked for it answers with: a
    /// value from ``RegStateService/apply(_:carrying:)``, never a field read after the call.
    enum Answer: Sendable {
        /// The logout happened: what it did at the provider, and the request that ends the browser session there.
        case loggedOut(LoggedOut)
        /// The logout did not happen (the provider or the store could not be reached), even when the refusal came
        /// back too late to apply.
        case logoutRefused(TransientIssue)
        /// The logout did not happen: the credentials record could not be read (a locked device; the store's reason).
        case logoutStoreUnreadable(StoreError)
        /// The session ended, but its credentials could not be removed from the store (the store's reason).
        case credentialsRemain(StoreError)
        /// Clear-state ran: what the backend did about this installation, and why the local records remain when the
        /// store's lock could not be taken or a removal failed (`nil`: everything local was removed).
        case cleared(InstallationDeregistration, credentialsRemain: StoreError?)
        /// Confirmation was refused at the backend's device limit; the ID token that still lists and removes devices
        /// (in memory only).
        case deviceLimit(idToken: String)
        /// A sign-in on another device was started or taken up: what to show.
        case deviceVerification(DeviceVerification)
        /// A social login was begun: the authorization URL to open.
        case authorizationURL(URL)
        /// The renewal of a token kind (``Effect/renew(_:replacing:)``) landed: the credential its callers got, or why not.
        case renewed(TokenCarrier, Swift.Result<AccessCredential?, RegStateServiceError>)
    }
}

extension Applied.Answer: RedactedDescription {
    /// The case, with the ID token redacted.
    var description: String {
        switch self {
        case .loggedOut(let loggedOut): "loggedOut(\(loggedOut.result.name))"
        case .logoutRefused(let issue): "logoutRefused(\(issue))"
        case .logoutStoreUnreadable(let reason): "logoutStoreUnreadable(\(reason))"
        case .credentialsRemain(let reason): "credentialsRemain(\(reason))"
        case .cleared(let deregistration, let remain): "cleared(\(deregistration)\(remain.map { ", credentialsRemain: \($0)" } ?? ""))"
        case .deviceLimit: "deviceLimit(redacted)"
        case .deviceVerification: "deviceVerification(redacted)"
        case .authorizationURL: "authorizationURL(redacted)"
        case .renewed(let kind, let answer): "renewed(\(kind.rawValue), \((try? answer.get()) == nil ? "failure" : "redacted"))"
        }
    }
}
