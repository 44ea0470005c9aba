import Foundation
import RegState

/// Calls the app's own API with the session's access token (the request policy).
///
/// Only URLs under `https://api.example.com/v1` ever see the token. However many calls get a 401 at once, RegState
/// renews once and retries each call once with the new token; a `403 FORCED_LOGOUT` ends the session (E, then D on
/// the event stream). Offline, a call whose token has expired fails with a recoverable E and the session stays.
struct TicketsAPI {
    let transport: AuthorizedTransport

    init(service: RegStateService, apiBase: URL) {
        transport = AuthorizedTransport(base: URLSessionTransport(), service: service,
                                        policy: TokenPolicy(validatingURLs: [apiBase]))
    }

    func tickets(at url: URL) async throws -> Data {
        let response = try await transport.send(HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"]))
        guard response.isSuccess else { throw URLError(.badServerResponse) }
        return response.body
    }
}
