import Foundation

extension TransientIssue {
    /// The reason code of this network condition wherever it is met (**E**, **F**, a refused host token): one
    /// condition, one code (<doc:LettersAndStateMachine>).
    public var reasonCode: String {
        switch self {
        case .noInternet: "transient_no_internet"
        case .ssoUnspecifiedIssue: "transient_provider_issue"
        }
    }
}
