import Foundation
import RegState

extension HTTPRequest {
    /// The body's form parameters (last value wins), as a server (the simulator) reads them.
    public var formParameters: [String: String] {
        guard let body, let text = String(data: body, encoding: .utf8) else { return [:] }
        return FormEncoding.decode(text)
    }
}
