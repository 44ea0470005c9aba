import Foundation
import RegState
import RegStateSimulator
import RegStateTesting

/// One seeded life of a session: the real ``RegStateService`` in several processes over one simulated disk, the
/// in-process provider and backend behind a faulty network, a virtual clock, and users doing what users do. Every
/// choice comes from the seed. After the actions the world heals (faults off, every process relaunched) and the
/// invariants are checked; some are checked at every step.
public actor SimulationRun {
    let options: SimulationOptions
    let ledger = Ledger()
    let clock = ManualClock()
    /// The launch-budget world's clock and referee (the engine sleeps on the clock; the network stalls through the
    /// referee); `nil` in every other world, whose engines keep the plain ``ManualClock``.
    nonisolated let budgetWatch: LaunchBudgetWatch?
    /// The memory world's subscribers and bounds (`nil` in other worlds).
    let memoryWatch: MemoryWatch?
    /// The shared-journal world's last snapshot sequence seen on the file's first line (a change is a compaction).
    var sharedJournalSnapshot: Int?
    /// The rejecting world's referee; `nil` in every other world.
    nonisolated let rejectionAudit: RejectionAudit?
    /// The forged-redirect world's referee on the wire, and what its registrations did; `nil` in every other world.
    nonisolated let forgeryAudit: ForgeryAudit?
    /// The device world's referee on the wire and its clock; `nil` in every other world.
    nonisolated let deviceAudit: DeviceAudit?
    /// The step-up world's referee on the wire; `nil` in every other world.
    nonisolated let stepUpAudit: StepUpAudit?
    var stepUpTally = StepUpTally()
    /// The clock that owns the engine's waits, in the worlds that have one (launch budget, device).
    nonisolated var waitClock: SimulationClock? { budgetWatch?.clock ?? deviceAudit?.clock }
    var forgeryTally = ForgeryTally()
    let liveness = Liveness()
    var random: SeededRandom
    /// A second stream for the faults added after the first seeds were recorded (key rotation, device limits), so
    /// that the main stream, and the actions it draws, stay what they were for every seed.
    var extraRandom: SeededRandom
    let simulator: Simulator
    let network: SimulatedNetwork
    var disk: (any SimulatedStorage)!
    var slots: [ProcessSlot] = []
    var nextIncarnation = 0
    /// Calls running, with the incarnation that made each.
    var pending: [(incarnation: Int, task: Task<Void, Never>)] = []
    /// Tasks that listen to a service's events for the whole life (the host world's notices): cancelled as the life
    /// ends, or each would wait on its stream forever, holding the life's every object (about 30 KB a life).
    var listeners: [Task<Void, Never>] = []
    let pendingCalls = PendingCalls()
    /// Calls that may each cause a refresh grant (the renewal-storm bound).
    var grantCapableCalls = 0
    /// Calls that renew whatever the token's age (`tokenRejected`, `renewSession`; a launch renews only a
    /// token past its renewal point): the time-free part of
    /// the per-lifetime renewal-storm bound.
    var explicitRenewals = 0
    /// Seconds the clock was set back in all, so that the virtual time that passed forward is known.
    var rewoundSeconds: TimeInterval = 0
    /// Set when a logout, forced logout or clear-state completed, cleared when a registration starts: no token may be
    /// on the disk meanwhile.
    var loggedOut = false
    /// The provisional record a registration left when its process died before confirming, on disk as that logout
    /// completed: not the ended session's (a process's logout leaves another's registration alone), and removed by
    /// the next launch. Only these exact bytes are excused.
    var abandonedProvisional: Data?
    /// The DPoP key on disk when ``abandonedProvisional`` was left: that registration's, not the ended session's.
    var abandonedDPoPKey: Data?
    /// Registrations started and not yet ended.
    var registrationsInFlight = 0 { didSet { if registrationsInFlight < oldValue { registrationsEnded += 1 } } }
    /// Registrations ended so far (stored or not): one that ends while a logout runs may store a new session.
    var registrationsEnded = 0
    let startedAt: Date
    let email = "alice@example.com"
    let accessLifetime: TimeInterval
    let crypto: SeededCrypto
    /// Who renews the session and how tokens travel (``SimulationWorld``).
    let world: SimulationWorld
    /// A third stream, for the choices only host and DPoP worlds make, so the first two stay as they were.
    var worldRandom: SeededRandom
    /// The step being acted.
    var currentStep = 0
    /// Host worlds: the host app (its own OIDC client, the ID tokens it got, the notices it has not answered yet).
    var host: SimulatedHost?
    /// DPoP worlds: whether the engine requires DPoP (otherwise: when offered).
    var engineRequiresDPoP = false
    /// PAR worlds: whether the engine requires pushed authorization requests or pushes when offered.
    var enginePushedAuthorization = PushedAuthorizationMode.whenOffered

    /// Builds the world of `options.seed`.
    public init(options: SimulationOptions) throws {
        self.options = options
        var random = SeededRandom(seed: options.seed)
        let networkRandom = random.split()
        let diskRandom = random.split()
        crypto = SeededCrypto(random: random.split())
        accessLifetime = [300, 900, 3600][random.below(3)]
        let refreshLifetime: TimeInterval? = [nil, 86_400, 30 * 86_400][random.below(3)]
        var configuration = SimulatorConfiguration()
        configuration.signingKey = SimulatedDevice.sharedSigningKey
        configuration.accessTokenLifetime = accessLifetime
        configuration.idTokenLifetime = accessLifetime
        configuration.refreshTokenLifetime = refreshLifetime
        configuration.refreshReuseGrace = random.chance(50) ? 0 : 30
        configuration.rotatesRefreshTokens = !random.chance(15)
        simulator = try Simulator(configuration: configuration, clock: clock, crypto: crypto)
        network = SimulatedNetwork(base: simulator.transport, clock: clock, random: networkRandom, ledger: ledger,
                                   issuer: configuration.issuer, backend: configuration.backendURL)
        self.random = random
        extraRandom = SeededRandom(seed: options.seed ^ 0x9E37_79B9_7F4A_7C15)
        world = options.world ?? SimulationWorld.drawn(for: options.seed)
        worldRandom = SeededRandom(seed: options.seed ^ 0x94D0_49BB_1331_11EB)
        budgetWatch = world == .launchBudget
            ? LaunchBudgetWatch(clock: SimulationClock(time: clock), random: SeededRandom(seed: options.seed ^ 0xB5AD_4ECE_DA1C_E2A9),
                                ledger: ledger)
            : nil
        memoryWatch = world == .memory ? MemoryWatch() : nil
        network.launchBudgetWatch = budgetWatch
        let carrier = Self.rejectedCarrier(for: options.seed)
        rejectionAudit = world == .rejectingBackend
            ? RejectionAudit(carrier: carrier, ledger: ledger, lifetime: carrier == .accessToken
                                 ? accessLifetime : Self.rejectingWorldSecurityTokenLifetime)
            : nil
        network.rejectionAudit = rejectionAudit
        forgeryAudit = world == .forgedRedirect ? ForgeryAudit(ledger: ledger) : nil
        let deviceClock = world == .device ? SimulationClock(time: clock) : nil
        ledger.strictRotations = world == .refreshedIDToken
        ledger.needlessRenewalLife = accessLifetime / 2
        network.forgeryAudit = forgeryAudit
        stepUpAudit = world == .stepUp ? StepUpAudit(ledger: ledger) : nil
        network.stepUpAudit = stepUpAudit
        network.disabledFaults = Set(options.disabledFaults.compactMap(\.networkFault))
        startedAt = clock.now()
        let ledger = ledger
        let liveness = liveness
        switch options.storage {
        case .model: disk = SimulatedDisk(random: diskRandom, ledger: ledger) { incarnation in liveness.kill(incarnation) }
        case .files: disk = SimulatedFileSystem(random: diskRandom, ledger: ledger) { incarnation in liveness.kill(incarnation) }
        case .keychain:
            let model = SimulatedDisk(random: diskRandom, ledger: ledger) { incarnation in liveness.kill(incarnation) }
            disk = SimulatedKeychain(disk: model, random: SeededRandom(seed: options.seed ^ 0x2545_F491_4F6C_DD1D), ledger: ledger)
        case .sharedSession:
            let session = SimulatedSharedSession(
                itemRandom: diskRandom, containerRandom: SeededRandom(seed: options.seed ^ 0x7F4A_7C15_2545_F491),
                deviceRandom: SeededRandom(seed: options.seed ^ 0x2545_F491_4F6C_DD1D), ledger: ledger
            ) { incarnation in liveness.kill(incarnation) }
            network.refreshAnswered = { session.refreshAnswered() }
            disk = session
        }
        let storage = disk
        let audit = deviceClock.map { DeviceAudit(clock: $0, ledger: ledger) { storage?.peek(DeviceAudit.recordKey) } }
        deviceAudit = audit
        network.deviceAudit = audit
        disk.fileSystem?.virtualClock = budgetWatch?.clock ?? deviceClock
        disk.fileSystem?.sharesJournal = world == .sharedJournal
        disk.fileSystem?.sharedAppendCrashes = world == .sharedJournal
        ledger.note("world \(world.rawValue) access=\(Int(accessLifetime))s refresh=\(refreshLifetime.map { "\(Int($0))s" } ?? "none") "
                    + "grace=\(Int(configuration.refreshReuseGrace))s rotates=\(configuration.rotatesRefreshTokens)")
    }

    /// Runs the actions, heals the world and checks the invariants.
    public func run() async -> SimulationResult {
        await prepareWorld()
        for index in 0..<options.processes {
            slots.append(ProcessSlot(index: index, incarnation: 0))
            await launch(index, reason: "first launch")
        }
        await register(0, spawned: false)
        for step in 1...max(1, options.steps) {
            ledger.begin(step: step)
            currentStep = step
            await actWorld()
            await act()
            for _ in 0..<random.below(6) { await DeterministicScheduler.yield() }
            await checkContinuously()
            waitClock?.wakeDue()
        }
        ledger.begin(step: options.steps + 1)
        await heal()
        await checkAtEnd()
        // Stalls of processes that ended are answered (to nobody), so no wait outlives the run.
        if let clock = waitClock {
            while clock.wakeNext() { for _ in 0..<8 { await DeterministicScheduler.yield() } }
        }
        let result = SimulationResult(
            seed: options.seed, violations: ledger.violations, trace: ledger.trace,
            virtualSeconds: clock.now().timeIntervalSince(startedAt) + rewoundSeconds, refreshGrants: await simulator.refreshGrantCount)
        // After the verdict (so no life's trace changes): the listeners end, and the life's objects with them.
        for listener in listeners + (memoryWatch?.listeners.values.flatMap { $0 } ?? []) { listener.cancel() }
        for _ in 0..<8 { await DeterministicScheduler.yield() }
        return result
    }

    // MARK: Processes

    /// Starts a new incarnation of slot `index` (ending the current one) and waits for its launch to settle.
    func launch(_ index: Int, reason: String) async {
        let slot = slots[index]
        end(slot)
        nextIncarnation += 1
        let incarnation = nextIncarnation
        slot.incarnation = incarnation
        let liveness = liveness
        let service = RegStateService(configuration: configuration(for: index), dependencies: RegStateDependencies(
            store: disk.store(for: incarnation),
            journal: disk.journal(for: slot, incarnation: incarnation, liveness: liveness),
            transport: network.transport(for: incarnation) { liveness.isAlive(incarnation) },
            clock: waitClock ?? clock, crypto: crypto, platform: SystemPlatformService(formFactor: "390x844"),
            logger: SilentLogger()))
        slot.service = service
        grantCapableCalls += 1
        budgetWatch?.launchBegan(incarnation)
        let state = await service.start()
        ledger.note("p\(incarnation) launched (\(reason)) slot \(index): \(Self.describe(state))")
        if let budgetWatch, budgetWatch.launchSettled(incarnation, sequence: try? await service.journalEntries().last?.sequence) {
            ledger.note("p\(incarnation) launch settled while its renewal stalls")
        }
        if world == .host {
            await listenForNotices(service, incarnation: incarnation)
            hostOnLaunch(index, state: state)
        }
        // At the heal every process relaunches to be checked as it settles: nothing is taken up there.
        if world == .device, reason != "heal" { resumeDeviceLogin(index, state: state) }
    }

    /// Ends slot's current incarnation: its memory is gone, its lock released, its requests never answered.
    func end(_ slot: ProcessSlot) {
        guard slot.service != nil else { return }
        ledger.processEnded()
        liveness.kill(slot.incarnation)
        disk.kill(slot.incarnation)
        let label = "p\(slot.incarnation) "
        rejectionAudit?.ended(slot.incarnation, midCall: pendingCalls.open.contains { $0.hasPrefix(label) })
        slot.service = nil
        memoryWatch?.forget(slot.incarnation)
        // Host worlds: the process's callers die with it (they may be waiting for a host that is gone too).
        // Device worlds: a poll waiting on the clock ends with its process.
        if world == .host || world == .device {
            for call in pending where call.incarnation == slot.incarnation { call.task.cancel() }
        }
    }

    /// The client ID of the another-client world's last slot: one the provider does not know.
    static let anotherClientID = "another-client"

    /// Whether slot `index` runs a process built for another client (the another-client world's last slot).
    func isAnotherClient(_ index: Int) -> Bool {
        world == .anotherClient && slots.count > 1 && index == slots.count - 1
    }

    /// The configuration of the processes of slot `index` (`nil`: the world client's, as every slot's but the
    /// another-client world's last).
    func configuration(for index: Int? = nil) -> RegStateConfiguration {
        let world = SimulatorConfiguration()
        let clientID = index.map(isAnotherClient) == true ? Self.anotherClientID : world.clientID
        var oidc = OIDCConfiguration(issuer: world.issuer, clientID: clientID, redirectURI: SimulatedDevice.redirect)
        oidc.unexplainedAnswerRetryDelay = 0
        var configuration = RegStateConfiguration(oidc: oidc, backendURL: world.backendURL)
        // A launch renewal waits for its answer, but in the launch-budget world, whose clock drives the budget's timer.
        configuration.launchBudget = self.world == .launchBudget ? LaunchBudgetWatch.budget : .infinity
        // Check Registration runs in a task of its own after the launch; the seeded world's actions stay the ones
        // the seed chose (the check is tested on the simulator in RegistrationCheckTests).
        configuration.checksRegistrationAtLaunch = false
        switch self.world {
        case .plain, .memory, .sharedJournal, .forgedRedirect, .anotherClient, .refreshedIDToken, .device, .stepUp: break
        case .together: configuration.dpop = .whenOffered
        case .rejectingBackend: configuration.backendRetiresSecurityTokens = true
        case .launchBudget: configuration.oidc.unexplainedAnswerRetryDelay = 1
        case .pushedAuthorization: configuration.oidc.pushedAuthorization = enginePushedAuthorization
        case .dpop: configuration.dpop = engineRequiresDPoP ? .required : .whenOffered
        case .host: configuration.sessionSource = .host
        }
        return configuration
    }

    /// Runs `work` as a call of a user of slot `index`, concurrently with everything else.
    func spawn(_ label: String, slot index: Int, _ work: @escaping @Sendable (RegStateService) async -> String) {
        guard let service = slots[index].service else { return }
        let incarnation = slots[index].incarnation
        let id = pendingCalls.begin("p\(incarnation) \(label)")
        let ledger = ledger
        let calls = pendingCalls
        // Detached: the call runs on its own, not on this actor (which drives the actions).
        pending.append((incarnation, Task.detached {
            let outcome = await work(service)
            calls.end(id)
            ledger.note("call  p\(incarnation) \(label) -> \(outcome)")
        }))
    }

    static func describe(_ state: RegState) -> String {
        if let letter = state.letter { return "\(state.caseName) \(letter)" }
        return state.caseName
    }
}
