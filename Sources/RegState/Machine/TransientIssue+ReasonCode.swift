import Foundation

extension TransientIssue {
    /// The reason code of this network condition wherever it is met (a renewal's **E**, a registration's **F**, a
    /// refused host token): one condition, one code, so an app that says "check your Wi-Fi" says it for every one.
    /// `transient_no_internet`: no answer (no network, a dropped connection, a timeout) or an answer from something
    /// that is not the service (a captive portal's page); `transient_provider_issue`: the service answered with a
    /// transient failure (5xx).
    public var reasonCode: String {
        switch self {
        case .noInternet: "transient_no_internet"
        case .ssoUnspecifiedIssue: "transient_provider_issue"
        }
    }
}
