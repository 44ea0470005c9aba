import Foundation
import RegState

/// Why a bearer token was not accepted, and the answer that says so.
struct BearerRefusal: Error {
    /// In words, for the resource log.
    var reason: String
    /// The `401` with its bearer challenge.
    var response: HTTPResponse
}

/// One request that reached the host API's resource endpoint: what a test checks to know which token arrived.
public struct ResourceRequest: Sendable, Equatable {
    /// What the `Authorization` header carried, judged by the provider (the token itself is never kept).
    public enum Bearer: Sendable, Equatable {
        /// No bearer token.
        case none
        /// A live access token of the user with this subject.
        case accepted(subject: String)
        /// A bearer token the provider does not honour (unknown, expired, revoked), and why.
        case refused(String)
    }

    /// The path under the backend URL.
    public var path: String
    /// What the `Authorization` header carried.
    public var bearer: Bearer

    /// Creates a record (tests compare against one).
    public init(path: String, bearer: Bearer) {
        self.path = path
        self.bearer = bearer
    }
}

/// The host API a RegState app calls with its access token (seed 001's validating URL): `GET /v1/resource/…` under
/// the backend URL answers `200 {"sub": …}` for a live provider access token and `401` with a bearer challenge
/// otherwise; with ``setForcesLogoutAtResource(_:)`` it answers `403 {"error": "FORCED_LOGOUT"}`. Every request is
/// logged in ``resourceRequests``, so a test can see which header arrived without a hand-written transport.
extension Simulator {
    /// Makes the resource endpoint answer `403 FORCED_LOGOUT` (or stops it).
    public func setForcesLogoutAtResource(_ forces: Bool) { forcesLogoutAtResource = forces }

    func handleResource(_ request: HTTPRequest, path: String) -> HTTPResponse {
        let checked = bearerUser(of: request)
        let bearer: ResourceRequest.Bearer = switch checked {
        case .success(let user): .accepted(subject: user.subject)
        case .failure where ServerResponse.bearerToken(of: request) == nil: .none
        case .failure(let refusal): .refused(refusal.reason)
        }
        resourceRequests.append(ResourceRequest(path: path, bearer: bearer))
        if forcesLogoutAtResource { return .json(403, ["error": "FORCED_LOGOUT"]) }
        switch checked {
        case .success(let user): return .json(200, ["sub": .string(user.subject)])
        case .failure(let refusal): return refusal.response
        }
    }
}
