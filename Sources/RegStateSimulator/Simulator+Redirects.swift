import Foundation
import RegState

extension Simulator {
    /// Sets the redirects the simulator answers (see ``SimulatorRedirect``); an empty list serves every request again.
    public func setRedirects(_ redirects: [SimulatorRedirect]) { configuration.redirects = redirects }

    /// Whether the request at a redirect's target carried a token, logged and echoed; the token itself is neither.
    func redirectTarget(_ request: HTTPRequest) -> HTTPResponse {
        let authorized = request.headers.keys.contains { $0.caseInsensitiveCompare("Authorization") == .orderedSame }
        requestLog.append("\(request.method.rawValue) \(request.url.absoluteString) authorization=\(authorized)")
        return .json(200, ["received_authorization": .bool(authorized)])
    }
}
