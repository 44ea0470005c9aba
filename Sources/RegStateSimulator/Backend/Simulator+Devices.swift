import Foundation
import RegState

/// The simulated backend's device list: a user sees the installations registered for them and removes one,
/// which is what `TOO_MANY_REGISTERED_DEVICES` asks for.
///
/// Both endpoints take `Authorization: Bearer <credential>` where the credential is a live security token of one of
/// the user's installations, or the user's valid ID token (the device at the limit has no security token yet):
/// - `GET /v1/devices` → `200 {"devices": [{"id", "platform", "form_factor", "registered_at" (seconds since 1970),
///   "current"}]}`, oldest first; `current` marks the installation of the security token used.
/// - `DELETE /v1/devices/<id>` → `204`; the installation and its security tokens are gone. `404 {"error":
///   "unknown_device"}` for an id that is not one of the user's installations.
/// - `401 {"error": "token_expired"}` for a credential that is neither.
extension Simulator {
    /// Answers `/v1/devices` and `/v1/devices/<id>`; `nil` for any other path.
    func handleDevices(_ request: HTTPRequest, path: String) -> HTTPResponse? {
        guard path == "/v1/devices" || path.hasPrefix("/v1/devices/") else { return nil }
        guard let caller = deviceCaller(request) else { return ServerResponse.backendError(401, "token_expired") }
        switch (path, request.method) {
        case ("/v1/devices", .get):
            let devices = world.installations
                .filter { $0.value.subject == caller.subject }
                .sorted { ($0.value.registeredAt, $0.key) < ($1.value.registeredAt, $1.key) }
                .map { id, record -> JSONValue in
                    .object([
                        "id": .string(id), "platform": .string(record.platform),
                        "form_factor": .string(record.formFactor),
                        "registered_at": .number(record.registeredAt.timeIntervalSince1970.rounded()),
                        "current": .bool(id == caller.installationID),
                    ])
                }
            return .json(200, ["devices": .array(devices)])
        case (_, .delete) where path.hasPrefix("/v1/devices/"):
            let id = String(path.dropFirst("/v1/devices/".count)).removingPercentEncoding ?? ""
            guard world.installations[id]?.subject == caller.subject else {
                return ServerResponse.backendError(404, "unknown_device")
            }
            removeInstallation(id)
            return HTTPResponse(status: 204)
        default:
            return ServerResponse.methodNotAllowed
        }
    }

    /// The user behind the request's bearer credential (a live security token, then an ID token), and the
    /// installation of the security token.
    private func deviceCaller(_ request: HTTPRequest) -> (subject: String, installationID: String?)? {
        guard let credential = ServerResponse.bearerToken(of: request) else { return nil }
        let now = clock.now()
        if let record = world.securityTokens[mint.storageKey(credential)], record.expiresAt > now,
           world.installations[record.installationID] != nil {
            return (record.subject, record.installationID)
        }
        return verifiedSubject(ofIDToken: credential, now: now).map { ($0, nil) }
    }
}
