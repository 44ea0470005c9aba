import Foundation
import RegState

extension HTTPResponse {
    /// A JSON response, as a server (the simulator) produces it: `application/json`, never cached.
    public static func json(_ status: Int, _ body: JSONValue, headers: [String: String] = [:]) -> HTTPResponse {
        var all = headers
        all["Content-Type"] = "application/json"
        all["Cache-Control"] = "no-store"
        return HTTPResponse(status: status, headers: all, body: body.serialized())
    }
}
