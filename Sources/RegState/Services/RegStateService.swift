import Foundation

/// The registration/auth engine: knows at every moment whether the user is registered and holds a usable session,
/// and gets them there (the registration design's Reg-State service): <doc:LettersAndStateMachine>.
///
/// ```swift
/// let service = RegStateService(configuration: config, dependencies: try .onDisk(at: directory))
/// let events = await service.events()
/// Task { for await event in events { print(event.title) } }   // "Active B", "Registration Required D", ...
/// let state = await service.start()
/// ```
public actor RegStateService {
    /// The state now (only ``apply(_:carrying:)`` changes it).
    private var current: RegState = .unsettled
    /// The effects that talk to the outside world: store, provider, backend, renewal.
    nonisolated let runner: EffectRunner
    private let broadcast = EventBroadcast<RegStateEvent>(bufferSize: subscriberBufferSize, replaysLatest: true)
    private var recorder: JournalRecorder
    private var lifecycle = ServiceLifecycle()
    /// The login grants and what this process remembers of the attempt in progress.
    let grants: LoginGrants
    /// The renewals of both token kinds: who starts, joins or waits, and the waiters.
    var flights = FlightMachine<RenewalWaiter>()
    /// The ``validAccessToken()`` answer being worked out, shared by every caller that arrives meanwhile.
    let answers = SingleFlight<Result<AccessTokenAnswer, RegStateServiceError>>()

    /// The most lettered events a slow subscriber may have waiting before the oldest are dropped.
    package static let subscriberBufferSize = 64
    /// Journal entries kept after the journal's snapshot before compaction folds them into a new snapshot.
    package static let journalCompactionThreshold = JournalRecorder.compactionThreshold

    /// Creates the service. Nothing happens until ``start()``.
    public init(configuration: RegStateConfiguration, dependencies: RegStateDependencies) {
        runner = EffectRunner(configuration: configuration, dependencies: dependencies)
        recorder = JournalRecorder(journal: dependencies.journal, clock: dependencies.clock, logger: dependencies.logger)
        grants = LoginGrants(runner: runner)
    }

    /// The current state.
    public var state: RegState { current }

    /// Who renews the session: the configuration's ``RegStateConfiguration/sessionSource``.
    public nonisolated var sessionSource: SessionSource { runner.configuration.sessionSource }

    nonisolated var clock: any RegStateClock { runner.dependencies.clock }
    var logger: any RegStateLogger { runner.logger }

    // MARK: Observing

    /// A stream of lettered events for one subscriber: the latest event first (if any), then every later one; one
    /// that falls more than `subscriberBufferSize` events behind loses the oldest.
    public func events() -> AsyncStream<RegStateEvent> {
        broadcast.subscribe()
    }

    /// How many subscribers are listening (tests show with it that a stream that ended is forgotten).
    package var subscriberCount: Int { broadcast.count }

    /// How many lettered events this service has broadcast (the CLI waits until its printer has seen them all).
    package var emittedEventCount: Int { broadcast.sentCount }

    /// What this service holds in memory that a long life could make grow (the simulation's memory invariant bounds
    /// it): live event streams, running flights, origins with a DPoP nonce, pending logins remembered as its own.
    package var retainedCounts: (subscribers: Int, flights: Int, dpopNonces: Int, ownedPendingLogins: Int) {
        get async {
            (subscriberCount, (answers.isRunning ? 1 : 0) + (flights.isRunning(.securityToken) ? 1 : 0),
             runner.dpop.nonces.count, await runner.tokens.owned.pendingLogins.count)
        }
    }

    /// Starts the service (on first call) and waits until it has settled: D, G, an active session, or an error.
    public func settled() async -> RegState {
        if !lifecycle.started { return await start() }
        if state.isSettled, !isAuthenticating { return state }
        return await withCheckedContinuation { lifecycle.settleWaiters.append($0) }
    }

    private var isAuthenticating: Bool { if case .authenticating = state { true } else { false } }

    // MARK: Launch

    /// Opens the journal, runs the launch sequence and returns the settled state; again, it relaunches.
    @discardableResult
    public func start() async -> RegState {
        if !lifecycle.started {
            lifecycle.started = true
            recorder.openAtLaunch()
            runner.provider.clockEstimate.journaledBefore(recorder.lastClockOffset)
        }
        await feed(.launched(isNative: runner.isNative))
        recorder.flush()
        lifecycle.launchCheck = checksRegistrationNow ? Task { await self.checkRegistrationResult() } : nil
        return state
    }

    /// Waits until a launch renewal that outlived ``RegStateConfiguration/launchBudget`` has landed and been applied:
    /// a short-lived process calls it before it exits, never between a rotation and the write of its successor.
    public func finishPendingRenewal() async {
        guard let pending = lifecycle.lateLaunchRenewal else { return }
        await pending.value
        lifecycle.lateLaunchRenewal = nil
    }

    /// The Check Registration the last ``start()`` began in the background
    /// (``RegStateConfiguration/checksRegistrationAtLaunch``), once it has finished; `nil` when it began none.
    public func launchRegistrationCheck() async -> Result<RegistrationCheck, RegStateServiceError>? {
        await lifecycle.launchCheck?.value
    }

    /// The service's own tasks (the launch's Check Registration, a late launch renewal) go with it.
    deinit {
        lifecycle.launchCheck?.cancel()
        lifecycle.lateLaunchRenewal?.cancel()
    }

    // MARK: The journal

    /// The journal, oldest first; ``RegStateServiceError/journal(_:)`` when it cannot be read.
    package func journalEntries() throws(RegStateServiceError) -> [JournalEntry] {
        do { return try recorder.entries() } catch { throw .journal(error) }
    }

    /// How many journal lines ``journalEntries()`` leaves out because they cannot be read (a tool says so).
    package func unreadableJournalEntryCount() throws(RegStateServiceError) -> Int {
        do { return try recorder.unreadableEntryCount() } catch { throw .journal(error) }
    }

    /// What the journal on disk folds to (snapshot, then entries): equal to ``state`` when the journal is whole.
    func journalFold() throws -> RegState { try recorder.storedFold() }

    // MARK: The shell

    /// Applies `event`: transition, journal, effects; returns what it applied. `input` goes to the effect, never to
    /// the journal. An event the state does not accept throws ``RegStateServiceError/rejected(_:)``.
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
        // A forced logout (the app's, the exchange's in either mode): the requests waiting for the security token
        // hear it once the session ended (the credentials removed), as in ``settle(_:)``, not the end's no-session.
        let forced: RenewalAnswer = .failure(.backend(.forcedLogout))
        let forcedWaiters = event == .forcedLogout ? flights.land(.securityToken, forced, at: clock.now()) : []
        defer { resume(forcedWaiters, with: forced) }
        logger.log(.debug, "\(event.name) -> \(state.caseName)")
        var applied = Applied(event, leading: transition.state)
        for effect in transition.effects {
            await perform(effect, into: &applied)
        }
        await noteClockOffset()
        resumeSettleWaiters()
        // A session that ended takes every request waiting for a renewal with it.
        if state.session == nil, state != .unsettled {
            resume(flights.sessionEnded(.noSession, at: clock.now()), with: .failure(.noSession))
        }
        return applied
    }

    /// Applies an effect's result; one the state no longer accepts (the user moved on) is logged and dropped (`nil`).
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

    /// Performs one effect: what it answered with and what its result applied go into `applied`.
    private func perform(_ effect: Effect, into applied: inout Applied) async {
        func answer(_ answer: Applied.Answer?, feeding event: MachineEvent?, carrying input: SecretInput? = nil) async {
            applied.append(await feed(event, carrying: input))
            applied.append(answer)
        }
        switch effect {
        case .emit(let event):
            broadcast.send(event)
            logger.log(.info, event.title)
        case .installNonNativeToken:
            await answer(nil, feeding: await runner.installNonNativeToken())
        case .inspectStoredTokens:
            let inspected = await runner.inspectStoredTokens()
            lifecycle.launchInspected = if case .storedTokensInspected(.expired(let stored)) = inspected.event { stored } else { nil }
            applied.append(await feed(inspected.event, carrying: inspected.stale))
        case .renew(let kind, let stale) where state == .unsettled:
            let launch = await renewWithinLaunchBudget(kind, replacing: stale, inspected: lifecycle.launchInspected)
            if let late = launch.late { lifecycle.lateLaunchRenewal = late }
            applied.append(launch.applied)
        case .renew(let kind, let stale):
            // The renewal runs in a task of its own; this caller waits for it like the others.
            _ = startRenewal(kind, replacing: stale, settles: true)
            applied.append(.renewed(kind, await waitForRenewal(kind)))
        case .runGrant(let step):
            let outcome = await grants.run(step) { await self.isAuthenticating }
            await answer(outcome.result, feeding: outcome.event, carrying: outcome.input)
        case .confirmRegistration:
            let confirmed = await grants.confirm()
            await answer(confirmed.result, feeding: confirmed.event)
        case .discardPendingAuthorization:
            await grants.discardPending()
        case .clearProvisionalTokens:
            await runner.clearProvisionalTokens()
        case .clearAllTokens:
            if let error = await runner.clearAllTokens() { return await answer(.credentialsRemain(error), feeding: nil) }
            await answer(nil, feeding: .credentialsCleared)
        case .clearEverything:
            let (deregistration, remain) = await runner.clearEverything()
            recorder.reset()
            broadcast.forgetLatest()
            await answer(.cleared(deregistration, credentialsRemain: remain), feeding: .credentialsCleared)
        case .logout:
            let outcome = await runner.logout()
            await answer(outcome.result, feeding: outcome.event)
        }
    }

    private func resumeSettleWaiters() {
        guard state.isSettled, !isAuthenticating else { return }
        for waiter in lifecycle.settleWaiters { waiter.resume(returning: state) }
        lifecycle.settleWaiters.removeAll()
    }
}
