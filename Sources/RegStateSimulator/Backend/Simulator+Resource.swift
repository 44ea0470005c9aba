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

/// The host API a RegState app calls with its access token (the request policy's validating URL): `GET /v1/resource/…` under
/// the backend URL answers `200 {"sub": …}` for a live provider access token and `401` with a bearer challenge
/// otherwise; with ``setForcesLogoutAtResource(_:)`` it answers `403 {"error": "FORCED_LOGOUT"}`. Every request is
/// logged in ``resourceRequests``, so a test can see which header arrived without a hand-written transport.
extension Simulator {
    /// Makes the resource endpoint answer `403 FORCED_LOGOUT` (or stops it).
    public func setForcesLogoutAtResource(_ forces: Bool) { forcesLogoutAtResource = forces }

    /// Makes the resource endpoint accept only a live backend security token (host mode) instead of the
    /// provider's access token; a forced-out installation then gets `403 FORCED_LOGOUT`.
    public func setResourceTakesSecurityToken(_ takes: Bool) { resourceTakesSecurityToken = takes }

    /// Makes the resource endpoint answer `401` to every token, live or not (a backend that keeps rejecting).
    public func setResourceRejectsEveryToken(_ rejects: Bool) { resourceRejectsEveryToken = rejects }

    func handleResource(_ request: HTTPRequest, path: String) -> HTTPResponse {
        let checked = resourceTakesSecurityToken ? securityTokenSubject(of: request) : bearerUser(of: request).map(\.subject)
        let bearer: ResourceRequest.Bearer = switch checked {
        case .success(let subject): .accepted(subject: subject)
        case .failure where ServerResponse.authorization(of: request) == nil: .none
        case .failure(let refusal): .refused(refusal.reason)
        }
        resourceRequests.append(ResourceRequest(path: path, bearer: bearer))
        if forcesLogoutAtResource { return .json(403, ["error": "FORCED_LOGOUT"]) }
        if resourceRejectsEveryToken { return ServerResponse.backendError(401, "token_expired") }
        switch checked {
        case .success(let subject):
            if let challenge = stepUpChallenge(for: request, path: path) { return challenge }
            return .json(200, ["sub": .string(subject)])
        case .failure(let refusal): return refusal.response
        }
    }

    /// The subject of the request's live security token; a forced-out installation is removed and answered
    /// `403 FORCED_LOGOUT`.
    private func securityTokenSubject(of request: HTTPRequest) -> Result<String, BearerRefusal> {
        let expired = BearerRefusal(reason: "no live security token",
                                    response: ServerResponse.backendError(401, "token_expired"))
        guard let token = ServerResponse.bearerToken(of: request),
              let record = world.securityTokens[mint.storageKey(token)], record.expiresAt > clock.now(),
              let installation = world.installations[record.installationID]
        else { return .failure(expired) }
        if installation.forcedLogout {
            removeInstallation(record.installationID)
            return .failure(BearerRefusal(reason: "forced logout", response: .json(403, ["error": "FORCED_LOGOUT"])))
        }
        return .success(record.subject)
    }
}
