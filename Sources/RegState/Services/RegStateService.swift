import Foundation

/// The registration/auth engine: knows at every moment whether the user is registered and holds a usable session,
/// and gets them there (seed 002's Reg-State service).
///
/// It is a thin actor shell around ``RegStateMachine``: every call turns into a ``MachineEvent``, the pure transition
/// function says what the new state is and which ``Effect``s to run, the shell journals the event, runs the effects
/// through the services, and feeds their results back as events. Subscribers receive the lettered
/// ``RegStateEvent``s through ``events()``.
///
/// ```swift
/// let service = RegStateService(configuration: config, dependencies: try .onDisk(at: directory))
/// let events = await service.events()
/// Task { for await event in events { print(event.title) } }   // "Active B", "Registration Required D", ...
/// let state = await service.start()
/// ```
public actor RegStateService {
    /// The current state.
    public private(set) var state: RegState = .unsettled

    let configuration: RegStateConfiguration
    let dependencies: RegStateDependencies
    let tokens: TokenService
    let provider: OIDCClient
    let renewal: RenewalService
    let backend: (any RegistrationBackend)?
    var logger: any RegStateLogger { dependencies.logger }

    private var subscribers: [UUID: AsyncStream<RegStateEvent>.Continuation] = [:]
    private var latestEvent: RegStateEvent?
    private var settleWaiters: [CheckedContinuation<RegState, Never>] = []
    private var sequence = 0
    private var started = false
    var lastAppliedFlight = 0
    /// The last stale access token a renewal was requested for, so that many callers seeing one token expire or be
    /// rejected make one journaled request (the one "token expired" notice).
    var renewalRequestedFor: String?
    /// The stale token the next ``Effect/renew`` replaces; `nil` renews whatever is stored.
    var staleTokenForRenewal: String?

    /// The social login in progress: PKCE verifier, state and nonce, kept in memory only.
    var pendingAuthorization: AuthorizationRequest?
    /// The redirect or one-time code the user just submitted, consumed by the next exchange effect.
    var pendingCallback: URL?
    var pendingCode: String?
    /// What the last logout effect did at the provider; read by ``logout()``.
    var lastLogout: LogoutResult?

    /// The most lettered events a slow subscriber may have waiting before the oldest are dropped.
    public static let subscriberBufferSize = 64
    /// Journal lines kept before compaction folds history down to the last launch.
    public static let journalCompactionThreshold = 1_000

    /// Creates the service. Nothing happens until ``start()``.
    public init(configuration: RegStateConfiguration, dependencies: RegStateDependencies) {
        self.configuration = configuration
        self.dependencies = dependencies
        tokens = TokenService(store: dependencies.store, clock: dependencies.clock, crypto: dependencies.crypto,
                              gracePeriod: configuration.gracePeriod)
        provider = OIDCClient(configuration: configuration.oidc, transport: dependencies.transport,
                              crypto: dependencies.crypto, clock: dependencies.clock)
        renewal = RenewalService(tokens: tokens, provider: provider, clock: dependencies.clock)
        if let backend = dependencies.backend {
            self.backend = backend
        } else if let url = configuration.backendURL {
            backend = HTTPRegistrationBackend(baseURL: url, transport: dependencies.transport)
        } else {
            backend = nil
        }
    }

    // MARK: Observing

    /// A stream of lettered events for one subscriber: the latest event first (if any), then every later one, in order.
    ///
    /// Every call returns a new, independent stream; it ends when the subscriber stops iterating. A subscriber that
    /// falls more than ``subscriberBufferSize`` events behind loses the oldest ones, never the newest.
    public func events() -> AsyncStream<RegStateEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RegStateEvent.self,
                                                            bufferingPolicy: .bufferingNewest(Self.subscriberBufferSize))
        let id = UUID()
        subscribers[id] = continuation
        if let latestEvent { continuation.yield(latestEvent) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return stream
    }

    /// How many subscribers are listening.
    public var subscriberCount: Int { subscribers.count }

    /// How many lettered events this service has broadcast since it was created.
    ///
    /// A subscriber that has received this many events (counting from before ``start()``) has seen every one, so a
    /// short-lived host such as the CLI can wait for its printer to catch up before it exits, without sleeping.
    public private(set) var emittedEventCount = 0

    private func removeSubscriber(_ id: UUID) {
        subscribers[id] = nil
    }

    /// Starts the service (on first call) and waits until it has settled: D, G, an active session, or an error.
    public func settled() async -> RegState {
        if !started { return await start() }
        if state.isSettled, !isAuthenticating { return state }
        return await withCheckedContinuation { settleWaiters.append($0) }
    }

    private var isAuthenticating: Bool {
        if case .authenticating = state { return true }
        return false
    }

    // MARK: Launch

    /// Replays the journal, then runs the launch sequence (seed 002 steps 1–5) and returns the settled state.
    ///
    /// Calling it again relaunches: the stored credentials are inspected anew.
    @discardableResult
    public func start() async -> RegState {
        if !started {
            started = true
            replayJournal()
        }
        _ = try? await apply(.launched(isNative: dependencies.platform.platform.isNative))
        return state
    }

    /// The journal, oldest first.
    ///
    /// - Throws: ``JournalError`` when it cannot be read.
    public func journalEntries() throws -> [JournalEntry] {
        try dependencies.journal.read().lines.compactMap { try? JournalEntry.decode($0) }
    }

    private func replayJournal() {
        do {
            let contents = try dependencies.journal.read()
            if contents.droppedLines > 0 {
                logger.log(.warning, "journal: dropped \(contents.droppedLines) damaged line(s)")
            }
            let entries = contents.lines.compactMap { try? JournalEntry.decode($0) }
            sequence = entries.last?.sequence ?? 0
            state = JournalEntry.fold(entries)
            logger.log(.debug, "journal: replayed \(entries.count) event(s) to \(state.caseName)")
            if entries.count > Self.journalCompactionThreshold { compact(entries) }
        } catch {
            logger.log(.warning, "journal: unreadable, starting fresh (\(error.localizedDescription))")
        }
    }

    /// Keeps the history from the last launch on: a launch resets the state, so the fold is unchanged.
    private func compact(_ entries: [JournalEntry]) {
        guard let lastLaunch = entries.lastIndex(where: { if case .launched = $0.event { true } else { false } }) else {
            return
        }
        let kept = entries[lastLaunch...].compactMap { try? $0.encoded() }
        do {
            try dependencies.journal.replaceAll(with: kept)
        } catch {
            logger.log(.warning, "journal: compaction failed (\(error.localizedDescription))")
        }
    }

    // MARK: The shell

    /// Applies `event`: transition, journal, effects; returns every event applied, this one first, then the results
    /// of its effects in order.
    ///
    /// - Throws: ``TransitionRejection`` when `event` does not apply in the current state (nothing changes).
    @discardableResult
    func apply(_ event: MachineEvent) async throws(TransitionRejection) -> [MachineEvent] {
        let transition = try RegStateMachine.transition(from: state, on: event)
        record(event)
        state = transition.state
        logger.log(.debug, "\(event.name) -> \(state.caseName)")
        var applied = [event]
        for effect in transition.effects {
            applied += await perform(effect)
        }
        resumeSettleWaiters()
        return applied
    }

    /// Applies the result of an effect; a result the state no longer accepts (the user moved on meanwhile) is logged
    /// and dropped.
    func feed(_ event: MachineEvent) async -> [MachineEvent] {
        do {
            return try await apply(event)
        } catch {
            logger.log(.debug, "dropped late result: \(error)")
            return []
        }
    }

    private func record(_ event: MachineEvent) {
        sequence += 1
        let entry = JournalEntry(sequence: sequence, recordedAt: dependencies.clock.now(), event: event)
        do {
            try dependencies.journal.append(try entry.encoded())
        } catch {
            // The journal is a record, not the source of the session: a full disk must not log the user out.
            logger.log(.warning, "journal: append failed (\(error.localizedDescription))")
        }
    }

    func broadcast(_ event: RegStateEvent) {
        latestEvent = event
        emittedEventCount += 1
        logger.log(.info, event.title)
        for continuation in subscribers.values { continuation.yield(event) }
    }

    func resetJournal() {
        do {
            try dependencies.journal.replaceAll(with: [])
        } catch {
            logger.log(.warning, "journal: clear failed (\(error.localizedDescription))")
        }
        sequence = 0
        latestEvent = nil
    }

    private func resumeSettleWaiters() {
        guard state.isSettled, !isAuthenticating, !settleWaiters.isEmpty else { return }
        let waiters = settleWaiters
        settleWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: state) }
    }
}
