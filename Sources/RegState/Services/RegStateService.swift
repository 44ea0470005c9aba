import Foundation

/// The registration/auth engine: knows at every moment whether the user is registered and holds a usable session,
/// and gets them there (the registration design's Reg-State service).
///
/// A thin actor shell around `RegStateMachine`: every call turns into a `MachineEvent` (with, when the effect
/// needs one, a `SecretInput` that is never journaled); the pure transition function gives the new state and the
/// `Effect`s to run; the shell journals the event, runs the effects and feeds their results back as events.
/// Subscribers receive the lettered ``RegStateEvent``s through ``events()``.
///
/// ```swift
/// let service = RegStateService(configuration: config, dependencies: try .onDisk(at: directory))
/// let events = await service.events()
/// Task { for await event in events { print(event.title) } }   // "Active B", "Registration Required D", ...
/// let state = await service.start()
/// ```
public actor RegStateService {
    /// The state now (``state`` reads it; only ``apply(_:carrying:)`` changes it).
    private var current: RegState = .unsettled
    /// The effects that talk to the outside world: store, provider, backend, renewal.
    private let effects: EffectRunner
    private let broadcast = EventBroadcast<RegStateEvent>(bufferSize: subscriberBufferSize, replaysLatest: true)
    private var recorder: JournalRecorder
    private var lifecycle = ServiceLifecycle()
    private var attempt = RegistrationAttempt()
    private let tokenFlights: TokenFlights

    /// The most lettered events a slow subscriber may have waiting before the oldest are dropped.
    package static let subscriberBufferSize = 64
    /// Journal entries kept after the journal's snapshot before compaction folds them into a new snapshot.
    package static let journalCompactionThreshold = JournalRecorder.compactionThreshold

    /// Creates the service. Nothing happens until ``start()``.
    public init(configuration: RegStateConfiguration, dependencies: RegStateDependencies) {
        effects = EffectRunner(configuration: configuration, dependencies: dependencies)
        recorder = JournalRecorder(journal: dependencies.journal, clock: dependencies.clock, logger: dependencies.logger)
        tokenFlights = TokenFlights(clock: dependencies.clock)
    }

    /// The current state.
    public var state: RegState { current }

    /// Who renews the session: the configuration's ``RegStateConfiguration/sessionSource``.
    public nonisolated var sessionSource: SessionSource { runner.configuration.sessionSource }

    // For the public calls in the other files: the stored properties stay private, these constants are read through.
    nonisolated var runner: EffectRunner { effects }
    nonisolated var flights: TokenFlights { tokenFlights }
    nonisolated var clock: any RegStateClock { effects.dependencies.clock }

    var logger: any RegStateLogger { runner.logger }

    /// The authorization URL of the social login in progress.
    var loginURL: URL? { attempt.login?.request.url }

    /// The login in progress pushed again because its `request_uri` expired (``reopenSocialLogin()``): its new URL,
    /// also in the login this process holds; `nil` when it could not be pushed again (logged).
    func pushLoginAgain() async -> URL? {
        switch await runner.pushLoginAgain(attempt.login) {
        case .success(let login):
            if attempt.login?.request.state == login.request.state { attempt.login = login }
            return login.request.url
        case .failure(let failure):
            runner.logger.log(.warning, "the login could not be pushed again (\(failure.reasonCode)); it begins again")
            return nil
        }
    }

    /// The ID token a confirmation refused at the device limit answered with (in memory only), for the device list.
    var deviceListIDToken: String? { attempt.deviceListIDToken }

    // MARK: Observing

    /// A stream of lettered events for one subscriber: the latest event first (if any), then every later one, in
    /// order. A subscriber that falls more than `subscriberBufferSize` events behind loses the oldest ones.
    public func events() -> AsyncStream<RegStateEvent> {
        broadcast.subscribe()
    }

    /// How many subscribers are listening (tests show with it that a stream that ended is forgotten).
    package var subscriberCount: Int { broadcast.count }

    /// How many lettered events this service has broadcast since it was created: a short-lived host such as the CLI
    /// waits until its printer has seen this many before it exits, without sleeping.
    package var emittedEventCount: Int { broadcast.sentCount }

    /// Starts the service (on first call) and waits until it has settled: D, G, an active session, or an error.
    public func settled() async -> RegState {
        if !lifecycle.started { return await start() }
        if state.isSettled, !isAuthenticating { return state }
        return await withCheckedContinuation { lifecycle.settleWaiters.append($0) }
    }

    private var isAuthenticating: Bool {
        if case .authenticating = state { return true }
        return false
    }

    // MARK: Launch

    /// Opens the journal (a torn tail cut, a long one compacted), runs the launch sequence and returns the settled
    /// state. Calling it again relaunches: the stored credentials are inspected anew.
    @discardableResult
    public func start() async -> RegState {
        if !lifecycle.started {
            lifecycle.started = true
            recorder.openAtLaunch()
            runner.provider.clockEstimate.journaledBefore(recorder.lastClockOffset)
        }
        _ = try? await apply(.launched(isNative: runner.isNative))
        recorder.flush()
        // The launch's Check Registration runs after the launch settled (its lettered event is already out).
        lifecycle.launchCheck = checksRegistrationNow ? Task { await self.checkRegistrationResult() } : nil
        return state
    }

    /// Waits until a launch renewal that outlived ``RegStateConfiguration/launchBudget`` has landed and its result is
    /// applied (**C**, or its **E**); returns at once when none is running. A short-lived process (a command-line
    /// run, an extension about to be suspended) calls it before it exits, so it never ends between the provider's
    /// rotation of the refresh token and the store's write of its successor.
    public func finishPendingRenewal() async {
        guard let pending = lifecycle.lateLaunchRenewal else { return }
        await pending.value
        lifecycle.lateLaunchRenewal = nil
    }

    /// The Check Registration the last ``start()`` began in the background (see
    /// ``RegStateConfiguration/checksRegistrationAtLaunch``), once it has finished; `nil` when the launch began none
    /// (no session, offline, no backend, turned off). A short-lived process calls it before it exits.
    public func launchRegistrationCheck() async -> Result<RegistrationCheck, RegStateServiceError>? {
        await lifecycle.launchCheck?.value
    }

    /// The service's own tasks (the launch's Check Registration, a late launch renewal) go with it.
    deinit {
        lifecycle.launchCheck?.cancel()
        lifecycle.lateLaunchRenewal?.cancel()
    }

    // MARK: The journal

    /// The journal, oldest first; ``RegStateServiceError/storage(_:)`` when it cannot be read.
    package func journalEntries() throws(RegStateServiceError) -> [JournalEntry] {
        try readingJournal { try recorder.entries() }
    }

    /// How many journal lines ``journalEntries()`` leaves out because they cannot be read (damaged, out of range, or
    /// a newer version's), so a tool can say so instead of showing a shorter history as if it were whole.
    package func unreadableJournalEntryCount() throws(RegStateServiceError) -> Int {
        try readingJournal(recorder.unreadableEntryCount)
    }

    /// What the journal on disk folds to (snapshot, then entries): equal to ``state`` when the journal is whole.
    func journalFold() throws -> RegState {
        try recorder.storedFold()
    }

    private func readingJournal<T>(_ read: () throws -> T) throws(RegStateServiceError) -> T {
        do {
            return try read()
        } catch {
            throw .storage(error.localizedDescription)
        }
    }

    // MARK: The shell

    /// Applies `event`: transition, journal, effects; returns what it applied (``Applied``). `input` goes to the
    /// effect the event asks for, never to the journal. An event the state does not accept is
    /// ``RegStateServiceError/rejected(_:)`` and changes nothing.
    @discardableResult
    func apply(_ event: MachineEvent, carrying input: SecretInput? = nil) async throws(RegStateServiceError) -> Applied {
        let transition: RegStateMachine.Transition
        do {
            transition = try RegStateMachine.transition(from: state, on: event, carrying: input)
        } catch {
            throw .rejected(error)
        }
        // The launch's first entry goes to disk with the next one (its inspection's result): one fsync, not two.
        if case .launched = event { recorder.recordWithNext(event) } else { recorder.record(event) }
        current = transition.state
        logger.log(.debug, "\(event.name) -> \(state.caseName)")
        var applied = Applied(event, leading: transition.state)
        for effect in transition.effects {
            applied.append(await perform(effect))
        }
        await noteClockOffset()
        resumeSettleWaiters()
        // A session that ended takes every request waiting for its security token with it.
        if state.session == nil, state != .unsettled { await flights.security.fail(.noSession) }
        return applied
    }

    /// Applies the result of an effect; one the state no longer accepts (the user moved on meanwhile) is logged and
    /// dropped (`nil`).
    @discardableResult
    func feed(_ event: MachineEvent?, carrying input: SecretInput? = nil) async -> Applied? {
        guard let event else { return nil }
        do {
            return try await apply(event, carrying: input)
        } catch {
            logger.log(.debug, "dropped late result: \(error)")
            return nil
        }
    }

    /// Feeds `event` back and answers with `result` beside what it applied.
    private func answer(_ result: EffectResult?, feeding event: MachineEvent?) async -> Performed {
        Performed(result: result, applied: await feed(event))
    }

    /// Performs one effect: what it answered with and what its result applied.
    private func perform(_ effect: Effect) async -> Performed {
        switch effect {
        case .emit(let event):
            broadcast.send(event)
            logger.log(.info, event.title)
            return .nothing
        case .installNonNativeToken:
            return await answer(nil, feeding: await runner.installNonNativeToken())
        case .inspectStoredTokens:
            let inspected = await runner.inspectStoredTokens()
            lifecycle.launchInspected = if case .storedTokensInspected(.expired(let stored)) = inspected.event { stored } else { nil }
            return Performed(applied: await feed(inspected.event, carrying: inspected.stale))
        case .renew(let staleAccessToken) where state == .unsettled:
            let launch = await renewWithinLaunchBudget(replacing: staleAccessToken, inspected: lifecycle.launchInspected)
            if let late = launch.late { lifecycle.lateLaunchRenewal = late }
            return Performed(applied: launch.applied)
        case .renew(let staleAccessToken):
            return await answer(nil, feeding: await runner.renewal.renew(replacing: staleAccessToken).effectEvent)
        case .startSocialAuthorization(let prompt, let requirement):
            switch await runner.startSocialAuthorization(prompt: prompt, requirement: requirement) {
            case .success(let started): attempt.login = started
                return await answer(nil, feeding: .authorizationIssued)
            case .failure(let failure):
                return await answer(nil, feeding: .registrationFailed(failure))
            }
        case .sendPasswordlessCode(let email):
            attempt.codeSent()
            return await answer(nil, feeding: await runner.sendPasswordlessCode(to: email))
        case .startDeviceAuthorization:
            switch await runner.startDeviceAuthorization() {
            case .success(let shown): attempt.deviceUserCode = shown.userCode
                return Performed(result: .deviceVerification(shown),
                                 applied: await feed(.authorizationIssued, carrying: .deviceVerification(shown)))
            case .failure(let failure): return await answer(nil, feeding: .registrationFailed(failure))
            }
        case .pollDeviceAuthorization:
            // One poll per process: a second caller waits for the one running, whose result is applied once.
            if let running = attempt.devicePoll { _ = await running.value; return .nothing }
            let poll = Task { await self.runner.pollDeviceAuthorization { await self.isAuthenticating } }
            attempt.devicePoll = poll
            // A caller that is cancelled (its process ends, say) takes the poll with it.
            let result = await withTaskCancellationHandler { await poll.value } onCancel: { poll.cancel() }
            if attempt.devicePoll == poll { attempt.devicePoll = nil }
            return await answer(nil, feeding: result)
        case .exchangeAuthorizationCode(let callback):
            // One callback per login: a replay of this redirect finds nothing pending, here or in the store.
            let remembered = attempt.login.take()
            let result = await runner.exchangeAuthorizationCode(callback, remembered: remembered) { await self.isAuthenticating }
            // A redirect that is not this login's was refused: the login stays for its own, however many come.
            if case .registrationFailed(let failure)? = result, failure.keepsSocialLogin, let kept = remembered {
                attempt.login = kept
            }
            return await answer(nil, feeding: result)
        case .verifyPasswordlessCode(let email, let code):
            var result = await runner.verifyPasswordlessCode(code, for: email) { await self.isAuthenticating }
            if case .registrationFailed(.wrongCode)? = result {
                if attempt.wrongCodeTyped(limit: runner.configuration.maxCodeAttempts) {
                    result = .registrationFailed(.tooManyAttempts)
                }
            }
            return await answer(nil, feeding: result)
        case .confirmRegistration:
            let confirmed = await runner.confirmRegistration()
            // At the device limit the provisional tokens go, but the ID token (in memory only) still lets the user
            // list and remove a device (``registeredDevices()``).
            var result: EffectResult?
            if confirmed == .registrationFailed(.tooManyRegisteredDevices),
               let idToken = await runner.tokens.snapshot()?.idToken {
                result = .deviceLimit(idToken: idToken)
            }
            attempt.deviceListIDToken = if case .deviceLimit(let idToken)? = result { idToken } else { nil }
            return await answer(result, feeding: confirmed)
        case .discardPendingAuthorization:
            if let discarded = attempt.login.take() { await runner.discardPendingLogin(state: discarded.request.state) }
            if let userCode = attempt.endDeviceAuthorization() { await runner.discardDeviceAuthorization(userCode: userCode) }
            return .nothing
        case .clearProvisionalTokens:
            await runner.clearProvisionalTokens()
            return .nothing
        case .clearAllTokens:
            if let reason = await runner.clearAllTokens() { return await answer(.credentialsRemain(reason), feeding: nil) }
            return await answer(nil, feeding: .credentialsCleared)
        case .clearEverything:
            let (deregistration, remain) = await runner.clearEverything()
            recorder.reset()
            broadcast.forgetLatest()
            return await answer(.cleared(deregistration, credentialsRemain: remain), feeding: .credentialsCleared)
        case .exchangeIDToken(let idToken):
            return await answer(nil, feeding: await runner.exchangeHostIDToken(idToken,
                                                                              renewing: state.session?.isHostDriven == true))
        case .logout:
            let outcome = await runner.logout()
            return await answer(outcome.result, feeding: outcome.event)
        }
    }

    private func resumeSettleWaiters() {
        guard state.isSettled, !isAuthenticating, !lifecycle.settleWaiters.isEmpty else { return }
        let waiters = lifecycle.settleWaiters
        lifecycle.settleWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: state) }
    }
}
