import Foundation

/// The one renewal route, for every token kind: the ``FlightMachine`` decides, the first caller journals
/// ``MachineEvent/renewalRequested(_:)``, whose ``Effect/renew(_:replacing:)`` runs the renewal in a task of its own,
/// and every caller is answered when it lands.
extension RegStateService {
    typealias RenewalWaiter = CheckedContinuation<RenewalAnswer, Never>
    /// What a renewal's task landed with: its flight, the event that applies it, the answer for its callers, and
    /// whether it cut a stored transient hold short.
    typealias RenewalLanding = (kind: TokenCarrier, generation: Int, event: MachineEvent?, answer: RenewalAnswer,
                                cut: Bool)

    /// Renews the token of `kind` that replaces `stale` (`nil`: whatever is stored) because of `trigger`: the renewed
    /// credential (`nil`: the caller reads the record), or why it failed (``RegStateServiceError/cancelled`` for a
    /// caller cancelled while it waits; the renewal goes on for the others).
    func renew(_ kind: TokenCarrier, replacing stale: String?, because trigger: RenewalTrigger) async -> RenewalAnswer {
        switch flights.admit(kind, replacing: stale, at: clock.now()) {
        case .answer(let answer):
            return answer
        case .exhausted:
            return .failure(.rejectedAfterRenewal)
        case .join:
            return await waitForRenewal(kind)
        case .start(let generation):
            let input: SecretInput? = kind == .securityToken
                ? .staleSecurityToken(stale ?? "") : stale.map(SecretInput.staleAccessToken)
            let applied: Applied
            do {
                applied = try await apply(.renewalRequested(trigger), carrying: input)
            } catch {
                // The state moved on (the session ended) before the request: nobody renews; the record decides.
                let answer: RenewalAnswer = kind == .accessToken ? .success(nil) : .failure(.noSession)
                land(kind, answer, generation: generation)
                return answer
            }
            // Host mode: the host renews the security token; its answer (``updateToken(idToken:)``) lands the flight.
            return if let answer = applied.renewal(kind) { answer } else { await waitForRenewal(kind) }
        }
    }

    /// Starts the renewal of `kind` in a task of its own (the refresh-token grant, or the security token's exchange),
    /// which also settles it when `settles` (``settle(_:)``); its value is what landed.
    func startRenewal(_ kind: TokenCarrier, replacing stale: String?, settles: Bool) -> Task<RenewalLanding, Never> {
        let generation = flights.begin(kind, replacing: stale)
        let forRejection = flights.isRejected(stale)
        let lastCut = flights.lastCut(kind)
        let renewal = runner.renewal
        return Task {
            let landing: RenewalLanding
            switch kind {
            case .accessToken:
                let grant = await renewal.grant(replacing: stale, forRejection: forRejection, lastCut: lastCut)
                let answer: RenewalAnswer = if case .renewalFailed(let failure, _) = grant.event {
                    .failure(RegStateServiceError(failure))
                } else {
                    .success(grant.credential)
                }
                landing = (kind, generation, grant.event, answer, grant.cut)
            case .securityToken:
                let answer = await self.exchangeSecurityToken(replacing: stale ?? "", forRejection: forRejection)
                landing = (kind, generation, (try? answer.get()) != nil ? .securityTokenRenewed : nil, answer, false)
            }
            if settles { await self.settle(landing) }
            return landing
        }
    }

    /// A renewal landed: the flight ends, its event is applied, then every waiter gets the answer (the session's end
    /// this event may cause does not fail them). Returns what the event applied.
    @discardableResult
    func settle(_ landing: RenewalLanding) async -> Applied? {
        if landing.cut { flights.noteCut(landing.kind, at: clock.now()) }
        let waiters = flights.land(landing.kind, landing.answer, generation: landing.generation, at: clock.now())
        let applied = await feed(landing.event)
        resume(waiters, with: landing.answer)
        return applied
    }

    /// Waits for the running renewal of `kind` (or the answer it left, when it landed meanwhile).
    func waitForRenewal(_ kind: TokenCarrier) async -> RenewalAnswer {
        let id = flights.nextWaiter()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: RenewalWaiter) in
                if let answer = flights.wait(kind, id: id, waiter) { waiter.resume(returning: answer) }
            }
        } onCancel: {
            Task { await self.stopWaiting(kind, id: id) }
        }
    }

    private func stopWaiting(_ kind: TokenCarrier, id: Int) {
        flights.cancel(kind, id: id)?.resume(returning: .failure(.cancelled))
    }

    func resume(_ waiters: [RenewalWaiter], with answer: RenewalAnswer) {
        for waiter in waiters { waiter.resume(returning: answer) }
    }

    /// The renewal of `kind` (the flight `generation`, `nil`: whichever runs) ends with `answer`, given to its waiters.
    func land(_ kind: TokenCarrier, _ answer: RenewalAnswer, generation: Int? = nil) {
        resume(flights.land(kind, answer, generation: generation, at: clock.now()), with: answer)
    }

    /// The access token's renewal for a caller that read `seen` and found `stale` expired or rejected: offline at once
    /// while a transient hold lasts, another's renewed credential, or ``renew(_:replacing:because:)`` (`nil`: always).
    @discardableResult
    func renewAccessToken(replacing stale: String?, because trigger: RenewalTrigger, seen: TokenSnapshot? = nil) async
        -> RenewalAnswer
    {
        if stale != nil {
            let record = if let seen { seen } else { await runner.tokens.snapshot() }
            if case .held = runner.tokens.holdPolicy.decide(record?.accessTokenBackoff, at: clock.now()) {
                return .failure(.offline(record?.accessTokenBackoffIssue ?? .ssoUnspecifiedIssue))
            }
            if let credential = runner.renewal.replacement(of: stale, in: record) { return .success(credential) }
        }
        return await renew(.accessToken, replacing: stale, because: trigger)
    }

    /// The launch renewal, given at most ``RegStateConfiguration/launchBudget`` seconds; past it, the launch settles
    /// offline and the renewal goes on. Returns what the launch applied, and the task that applies a late result.
    /// `inspected`: the expired session the launch read, used when the store cannot be read as it settles.
    func renewWithinLaunchBudget(_ kind: TokenCarrier, replacing staleAccessToken: String?, inspected: StoredSession?)
        async -> (applied: Applied?, late: Task<Void, Never>?)
    {
        let budget = runner.configuration.launchBudget
        let flight = startRenewal(kind, replacing: staleAccessToken, settles: false)
        // An infinite budget waits for the renewal itself: no timer.
        guard budget.isFinite else {
            return (await settle(await flight.value), nil)
        }
        if let landing = await SingleFlight.value(of: flight, within: budget, on: clock) {
            return (await settle(landing), nil)
        }
        logger.log(.info, "launch: the provider has not answered within \(budget) s; settling offline")
        // The record as it is now (another process may have renewed or ended the session meanwhile); when the store
        // cannot be read now, the session the launch inspected (read as "none", a late renewal would never apply).
        let stored: StoredSession?
        do {
            stored = try await runner.tokens.readSnapshot()?.session
        } catch {
            stored = inspected
        }
        let applied = await feed(.renewalFailed(.transient(.noInternet), stored: stored))
        let late = Task {
            let landing = await withTaskCancellationHandler { await flight.value } onCancel: { flight.cancel() }
            _ = await self.settle(landing)
        }
        return (applied, late)
    }
}
