import Foundation

/// The grants room: every way of getting tokens at login is one type in this folder that owns its requests, its
/// answer checks and its pending state; this actor runs them, one ``GrantStep`` at a time (``Effect/runGrant(_:)``).
///
/// What a grant may touch: the secure store through the token service (``TokenService``, under the store's lock; a
/// pending record through ``PendingGrantRecord``'s one mechanism), the clock (``RegStateClock``) and the transport
/// (``OIDCClient``, the registration backend). Never the shell (``RegStateService``), its state or its journal.
/// The actor holds what this process remembers of the attempt in progress; see `docs/Internals-Grants.md`.
actor LoginGrants {
    /// What a grant step answered: the event to feed back (`nil`: none), its input, and what the public call answers.
    struct Outcome: Sendable {
        var event: MachineEvent?
        var input: SecretInput? = nil
        var result: Applied.Answer? = nil
    }

    private let runner: EffectRunner
    /// The social login this process began (the secure store keeps it for a relaunch).
    private var login: PendingLogin?
    /// Wrong codes typed for the current emailed code (every code sent starts the count again).
    private var wrongCodes = 0
    /// The user code of the device authorization this process started or took up (the store keeps its secret).
    private var deviceUserCode: String?
    /// The poll of that authorization while it runs: cancelled when the attempt ends.
    private var devicePoll: Task<MachineEvent?, Never>?
    /// The ID token a confirmation refused at the device limit answered with (in memory only), for the device list.
    private(set) var deviceListIDToken: String?

    init(runner: EffectRunner) {
        self.runner = runner
    }

    private var authorizationCode: AuthorizationCodeGrant { AuthorizationCodeGrant(runner: runner) }
    private var passwordless: PasswordlessGrant { PasswordlessGrant(provider: runner.provider) }
    private var device: DeviceAuthorizationGrant { DeviceAuthorizationGrant(runner: runner) }

    /// Runs `step`; `stillWanted` says whether the user still waits for its tokens (checked before they are stored).
    func run(_ step: GrantStep, stillWanted: @escaping @Sendable () async -> Bool) async -> Outcome {
        switch step {
        case .start(.social, let prompt, let requirement):
            switch await authorizationCode.begin(prompt: prompt, requirement: requirement) {
            case .success(let started):
                login = started
                return Outcome(event: .authorizationIssued, result: .authorizationURL(started.request.url))
            case .failure(let failure):
                return Outcome(event: .registrationFailed(failure))
            }
        case .start(.passwordless(let email), _, _):
            wrongCodes = 0
            // A code sent supersedes a social login left pending before a relaunch.
            await authorizationCode.discard()
            return Outcome(event: await passwordless.send(to: email, for: runner))
        case .start(.device, _, _):
            let runner = runner
            switch await device.begin(makeKey: { () async throws(OIDCError) -> DPoPKey? in try await LoginTokens(runner: runner).keyForNewRegistration() }) {
            case .success(let pending):
                let shown = pending.verification
                deviceUserCode = shown.userCode
                return Outcome(event: .authorizationIssued, input: .deviceVerification(shown), result: .deviceVerification(shown))
            case .failure(let failure):
                return Outcome(event: .registrationFailed(failure))
            }
        case .redirect(let callback):
            // One redirect per login: a replay of this redirect finds nothing pending, here or in the store.
            let remembered = login.take()
            let result = await authorizationCode.exchange(callback, remembered: remembered, stillWanted: stillWanted)
            // A redirect that is not this login's was refused: the login stays for its own, however many come.
            if case .registrationFailed(let failure)? = result, AuthorizationCodeGrant.survives(failure), let kept = remembered {
                login = kept
            }
            return Outcome(event: result)
        case .code(let code, let email):
            let result = await passwordless.verify(code, for: email, with: runner, stillWanted: stillWanted)
            guard case .registrationFailed(.wrongCode)? = result else { return Outcome(event: result) }
            wrongCodes += 1
            return Outcome(event: wrongCodes >= runner.configuration.maxCodeAttempts ? .registrationFailed(.tooManyAttempts) : result)
        case .awaitApproval:
            // One poll per process: a second caller waits for the one running, whose result is applied once.
            if let running = devicePoll {
                _ = await running.value
                return Outcome(event: nil)
            }
            let (runner, device) = (runner, device)
            let poll = Task { await device.pollStored(with: runner, stillWanted: stillWanted) }
            devicePoll = poll
            // A caller that is cancelled (its process ends, say) takes the poll with it.
            let result = await withTaskCancellationHandler { await poll.value } onCancel: { poll.cancel() }
            if devicePoll == poll { devicePoll = nil }
            return Outcome(event: result)
        case .hostIDToken(let idToken, let renewing):
            return Outcome(event: await HostIDTokenGrant(runner: runner).exchange(idToken, renewing: renewing))
        }
    }

    /// Confirms the registration the grant produced; at the backend's device limit, keeps and answers the ID token
    /// that still lists and removes devices.
    func confirm() async -> Outcome {
        let confirmed = await LoginTokens(runner: runner).confirmRegistration()
        deviceListIDToken = confirmed.deviceListIDToken
        return Outcome(event: confirmed.event, result: confirmed.deviceListIDToken.map { Applied.Answer.deviceLimit(idToken: $0) })
    }

    /// The attempt ended (cancelled, failed, logged out, cleared): the login this process holds is forgotten in the
    /// store, the device poll stops at once and its authorization is forgotten. Another process's are left alone.
    func discardPending() async {
        let discarded = login.take()
        devicePoll?.cancel()
        devicePoll = nil
        let userCode = deviceUserCode.take()
        if let discarded { await authorizationCode.discard(state: discarded.request.state) }
        if let userCode { await device.discard(userCode: userCode) }
    }

    /// The login in progress pushed again because its `request_uri` expired: its new URL, also in the login this
    /// process holds; `nil` when it could not be pushed again (logged).
    func pushLoginAgain() async -> URL? {
        switch await authorizationCode.pushAgain(login) {
        case .success(let again):
            if login?.request.state == again.request.state { login = again }
            return again.request.url
        case .failure(let failure):
            runner.logger.log(.warning, "the login could not be pushed again (\(failure.reasonCode)); it begins again")
            return nil
        }
    }

    /// Forgets the stored device authorization with `userCode` (one kept from before a relaunch).
    func discardDevice(userCode: String) async {
        await device.discard(userCode: userCode)
    }

    /// Forgets the stored social login, whichever it is (one kept from before a relaunch).
    func discardStoredLogin() async {
        await authorizationCode.discard()
    }
}
