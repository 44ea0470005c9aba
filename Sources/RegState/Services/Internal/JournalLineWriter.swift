import Foundation

/// Writes, without `Codable` and byte for byte as ``RecordedTime/encoder()`` does, the journal lines of a launch
/// (`launched`, `storedTokensInspected`), of the events without a payload or with only a session or a renewal trigger,
/// and the snapshot of an unsettled, registration-required or active state. A short process (`regstate status`)
/// journals only the launch, so it never loads the encoder's generic machinery; the others are most of what a long
/// life journals. Any other event goes through the encoder. Tests compare the bytes of both.
enum JournalLineWriter {
    /// The line for `entry`, or `nil` when its event is not one this writer covers.
    static func line(for entry: JournalEntry) -> Data? {
        guard let event = event(entry.event) else { return nil }
        var out = JSONText()
        out.raw("{\"at\":")
        out.number(entry.recordedAt.timeIntervalSince1970)
        out.raw(",\"event\":")
        out.raw(event.text)
        out.raw(",\"seq\":")
        out.raw(String(entry.sequence))
        out.raw("}")
        return out.data
    }

    /// The line for `snapshot`, or `nil` when its state is not one this writer covers (unsettled, registration
    /// required, active): `{"snapshot":{"seq":N,"state":{...}}}`.
    static func snapshotLine(_ snapshot: JournalSnapshot) -> Data? {
        var out = JSONText()
        out.raw("{\"snapshot\":{\"seq\":\(snapshot.sequence),\"state\":")
        switch snapshot.state {
        case .unsettled: out.raw("{\"unsettled\":{}}")
        case .registrationRequired: out.raw("{\"registrationRequired\":{}}")
        case .active(let session): out.raw("{\"active\":{\"_0\":"); out.session(session); out.raw("}}")
        case .authenticating, .awaitingConfirmation, .failed: return nil
        }
        out.raw("}}")
        return out.data
    }

    private static func event(_ event: MachineEvent) -> JSONText? {
        var out = JSONText()
        switch event {
        case .launched(let isNative):
            out.raw("{\"launched\":{\"isNative\":\(isNative)}}")
        case .storedTokensInspected(let status):
            out.raw("{\"storedTokensInspected\":{\"_0\":")
            switch status {
            case .nothing: out.raw("{\"nothing\":{}}")
            case .corrupt(let reason): out.raw("{\"corrupt\":{\"reason\":"); out.string(reason); out.raw("}}")
            case .unreadable(let reason): out.raw("{\"unreadable\":{\"reason\":"); out.string(reason); out.raw("}}")
            case .valid(let session): out.raw("{\"valid\":{\"_0\":"); out.storedSession(session); out.raw("}}")
            case .expired(let session): out.raw("{\"expired\":{\"_0\":"); out.storedSession(session); out.raw("}}")
            case .boundElsewhere(let mismatch):
                out.raw("{\"boundElsewhere\":{\"_0\":"); out.string(mismatch.rawValue); out.raw("}}")
            }
            out.raw("}}")
        case .nonNativeTokenInstalled, .authorizationIssued, .credentialsSubmitted, .confirmationRequested,
             .retryRequested, .logoutRequested, .loggedOut, .forcedLogout, .clearStateRequested, .credentialsCleared,
             .hostTokenSubmitted, .securityTokenRenewed, .pendingLoginResumed:
            out.raw("{\"\(event.name)\":{}}")
        case .renewalRequested(let trigger):
            out.raw("{\"renewalRequested\":{\"_0\":"); out.string(trigger.rawValue); out.raw("}}")
        case .renewalSucceeded(let session), .authenticated(let session), .registrationConfirmed(let session),
             .hostTokenAccepted(let session):
            out.raw("{\"\(event.name)\":{\"_0\":"); out.storedSession(session); out.raw("}}")
        default:
            return nil
        }
        return out
    }
}

/// The journal records' shapes, keys in the order `JSONEncoder` sorts them.
extension JSONText {
    /// ``StoredSession`` (keys sorted: expiresAt, profile, refreshExpiresAt, registrationType).
    mutating func storedSession(_ session: StoredSession) {
        var first = true
        raw("{")
        key("expiresAt", first: &first); number(session.expiresAt.timeIntervalSince1970)
        key("profile", first: &first); profile(session.profile)
        if let refresh = session.refreshExpiresAt {
            key("refreshExpiresAt", first: &first); number(refresh.timeIntervalSince1970)
        }
        key("registrationType", first: &first); string(session.registrationType.rawValue)
        raw("}")
    }

    /// ``Session`` (keys sorted: activation, connectivity, expiresAt, profile, registrationType, renewalPending).
    mutating func session(_ session: Session) {
        var first = true
        raw("{")
        key("activation", first: &first); string(session.activation.rawValue)
        key("connectivity", first: &first)
        switch session.connectivity {
        case .online: raw("{\"online\":{}}")
        case .offline(let issue): raw("{\"offline\":{\"_0\":"); string(issue.rawValue); raw("}}")
        }
        if let expiresAt = session.expiresAt { key("expiresAt", first: &first); number(expiresAt.timeIntervalSince1970) }
        if let profile = session.profile { key("profile", first: &first); self.profile(profile) }
        if let type = session.registrationType { key("registrationType", first: &first); string(type.rawValue) }
        key("renewalPending", first: &first); raw(session.renewalPending ? "true" : "false")
        raw("}")
    }

    /// ``Profile`` (keys sorted: email, emailVerified, issuer, name, picture, subject; absent values omitted).
    mutating func profile(_ profile: Profile) {
        var first = true
        raw("{")
        if let email = profile.email { key("email", first: &first); string(email) }
        key("emailVerified", first: &first); raw(profile.emailVerified ? "true" : "false")
        key("issuer", first: &first); string(profile.issuer)
        if let name = profile.name { key("name", first: &first); string(name) }
        if let picture = profile.picture { key("picture", first: &first); string(picture) }
        key("subject", first: &first); string(profile.subject)
        raw("}")
    }
}
