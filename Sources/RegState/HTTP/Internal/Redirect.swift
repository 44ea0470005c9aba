import Foundation

/// Following an HTTP redirect (RFC 9110 §15.4) without taking credentials to another origin; ``AuthorizedTransport``
/// then applies its ``TokenPolicy`` afresh (<doc:RequestPolicy>).
enum Redirect {
    /// How many redirects one request may follow before the last redirect response is returned as it is.
    static let maximumHops = 5

    /// The statuses that are followed.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The headers that carry credentials and never cross an origin.
    static let credentialHeaders = ["authorization", "proxy-authorization", "cookie"]

    /// The request to send after `response` answered `request`, or `nil` when it is not a redirect to follow (another
    /// status, no usable `Location`, or a target that is not `http`/`https`).
    static func next(after request: HTTPRequest, response: HTTPResponse) -> HTTPRequest? {
        guard statuses.contains(response.status), let location = response.header("Location"),
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let to = NormalizedURL(target)
        else { return nil }
        var next = request
        next.url = target
        if response.status == 303 || ((response.status == 301 || response.status == 302) && request.method == .post) {
            next.method = .get
            next.body = nil
            next.headers = next.headers.filter { name, _ in
                !["content-type", "content-length"].contains(name.lowercased())
            }
        }
        let sameOrigin = NormalizedURL(request.url).map { $0.hasSameOrigin(as: to) } ?? false
        if !sameOrigin {
            next.headers = next.headers.filter { name, _ in !credentialHeaders.contains(name.lowercased()) }
        }
        return next
    }
}
