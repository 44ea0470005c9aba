import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator
import RegStateTesting

/// Launch against journal history, journal replay, event delivery and concurrent callers, each with its
/// floor measured in the same run. Every line says what was timed.
enum EngineBenchmarks {
    static let rounds = 9
    /// Launch pairs: many, since one launch is a few milliseconds and the machine is shared.
    static let launchRounds = 31

    /// A registered device on disk, over the simulator.
    struct World {
        let directory: URL
        let clock = ManualClock(start: Date(), waitsOnWallTime: true)
        let simulator: Simulator
        let configuration: RegStateConfiguration

        init(directory: URL, key: RSAPrivateKey) throws {
            self.directory = directory
            var world = SimulatorConfiguration()
            world.signingKey = key
            simulator = try Simulator(configuration: world, clock: clock)
            configuration = RegStateConfiguration(
                oidc: OIDCConfiguration(issuer: world.issuer, clientID: world.clientID,
                                        redirectURI: SimulatedDevice.redirect),
                backendURL: world.backendURL)
        }

        var journalURL: URL { directory.appendingPathComponent("journal.log") }

        func service() throws -> RegStateService {
            var dependencies = try RegStateDependencies.onDisk(at: directory, transport: simulator.transport)
            dependencies.clock = clock
            return RegStateService(configuration: configuration, dependencies: dependencies)
        }

        func register() async throws {
            let service = try service()
            await service.start()
            let url = try await service.beginSocialRegistration()
            try await service.completeSocialRegistration(callback: try await simulator.authorize(url, as: "alice@example.com"))
            try await service.confirmRegistration()
        }
    }

    /// `count` journal lines in the format written before snapshots (plain entries), folding to Active B.
    static func legacyJournal(_ count: Int, stored: StoredSession) throws -> Data {
        var lines: [Data] = []
        lines.reserveCapacity(count)
        for index in 0..<count {
            let event: MachineEvent = index % 2 == 0 ? .launched(isNative: true) : .storedTokensInspected(.valid(stored))
            lines.append(try JournalEntry(sequence: index + 1, recordedAt: Date(), event: event).encoded())
        }
        return try framed(lines)
    }

    /// The bytes `FileJournal` writes for `lines`.
    static func framed(_ lines: [Data]) throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("regstate-frame-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let journal = try FileJournal(url: scratch)
        try journal.replaceAll(with: lines)
        return try Data(contentsOf: scratch)
    }

    /// One group of figures alone: `launch` (journal replay and launch) or `callers`.
    static func run(only group: String, scratch: URL) async throws {
        switch group {
        case "callers": try await callers(key: try SystemCrypto().generateRSAPrivateKey(bits: 2048), scratch: scratch)
        case "launch": try await run(scratch: scratch, deliveriesAndCallers: false)
        default: print("unknown group \(group): launch or callers")
        }
    }

    static func run(scratch: URL, deliveriesAndCallers: Bool = true) async throws {
        let key = try SystemCrypto().generateRSAPrivateKey(bits: 2048)
        let world = try World(directory: scratch.appendingPathComponent("launch"), key: key)
        try FileManager.default.createDirectory(at: world.directory, withIntermediateDirectories: true)
        try await world.register()
        let stored = StoredSession(registrationType: .social, expiresAt: Date().addingTimeInterval(3_000),
                                   profile: Profile(subject: "s", issuer: "https://idp.example"))

        // Floor: one fsync'd journal append.
        let floorJournal = try FileJournal(url: scratch.appendingPathComponent("floor.log"))
        let line = try JournalEntry(sequence: 1, recordedAt: Date(), event: .launched(isNative: true)).encoded()
        let append = try await Rounds.time(rounds: rounds) { for _ in 0..<10 { try floorJournal.append(line) } }
        print(Rounds(values: append.values.map { $0 / 10 }).line("floor: one journal append (one line, fsync), per append"))

        // Journal replay: read + frame check + decode + fold of a plain (pre-snapshot) journal of N lines.
        for count in [10, 10_000, 100_000] {
            let url = scratch.appendingPathComponent("replay-\(count).log")
            try legacyJournal(count, stored: stored).write(to: url)
            let journal = try FileJournal(url: url)
            let replay = try await Rounds.time(rounds: count >= 100_000 ? 5 : rounds) {
                let entries = try journal.read().lines.compactMap { try? JournalEntry.decode($0) }
                _ = JournalEntry.fold(entries)
            }
            print(replay.line("journal replay, \(count) plain entries (read, check, decode, fold; no launch)"))
        }

        // Launch to settled (Active B, valid token, disk store + journal), the journal file reset before each launch:
        // 10 events of history, and 100,000 (an old-format journal folded once by its first launch, untimed below).
        let short = try legacyJournal(10, stored: stored)
        let first = try await Rounds.time(rounds: 1, prepare: {
            try legacyJournal(100_000, stored: stored).write(to: world.journalURL)
        }) { _ = try await world.service().start() }
        print(first.line("  one-time: first launch on a pre-snapshot journal of 100000 lines (folds it)"))
        let long = try Data(contentsOf: world.journalURL)
        // In turn (10, 100,000, 10, ...), so the ratio pairs launches made a moment apart.
        var tens: [Double] = [], longs: [Double] = []
        for round in 0...launchRounds {
            for (journal, into) in [(short, 0), (long, 1)] {
                try journal.write(to: world.journalURL)
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await world.service().start()
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                if round > 0 { if into == 0 { tens.append(elapsed) } else { longs.append(elapsed) } }  // round 0 warms up
            }
        }
        let ten = Rounds(values: tens), hundredThousand = Rounds(values: longs)
        print(ten.line("launch to Active B, journal of 10 events, file reset each launch"))
        print(hundredThousand.line("launch to Active B, 100000 events of history (snapshot + tail), file reset"))
        print(hundredThousand.ratio(to: ten).line("ratio launch 100,000 / launch 10 (per pair)", unit: "×"))

        guard deliveriesAndCallers else { return }
        try await deliveries(world)
        try await callers(key: key, scratch: scratch)
    }

    /// renewSession → Active C received by every subscriber, against the same with no subscriber.
    static func deliveries(_ world: World) async throws {
        let service = try world.service()
        _ = await service.start()
        var figures: [Int: Rounds] = [:]
        for subscribers in [0, 1, 100] {
            let received = LockedValue(0)
            var streams: [Task<Void, Never>] = []
            for _ in 0..<subscribers {
                let events = await service.events()
                streams.append(Task {
                    for await event in events where event.title == "Active C" { received.withLock { $0 += 1 } }
                })
            }
            try await Task.sleep(nanoseconds: 50_000_000)
            let figure = try await Rounds.time(rounds: rounds) {
                let target = received.withLock { $0 } + subscribers
                await service.renewSession()
                while received.withLock({ $0 }) < target { await Task.yield() }
            }
            streams.forEach { $0.cancel() }
            figures[subscribers] = figure
            let label = subscribers == 0 ? "floor: renewSession (in-process provider), no subscriber"
                : "renewSession until Active C reached all \(subscribers) subscriber(s)"
            print(figure.line(label))
        }
        if let floor = figures[0], let hundred = figures[100] {
            print(hundred.ratio(to: floor).line("ratio 100 subscribers / no subscriber (per round)", unit: "×"))
        }
    }

    /// 1,000 callers of validAccessToken on an expired token at 50 ms provider latency, against one renewal.
    static func callers(key: RSAPrivateKey, scratch: URL) async throws {
        let world = try World(directory: scratch.appendingPathComponent("callers"), key: key)
        try FileManager.default.createDirectory(at: world.directory, withIntermediateDirectories: true)
        try await world.register()
        let service = try world.service()
        _ = await service.start()
        await world.simulator.setLatency(0.05)
        var floors: [Double] = []
        var crowds: [Double] = []
        var grants: Set<Int> = []
        func elapsed(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
        for round in 0...rounds {
            var start = DispatchTime.now().uptimeNanoseconds
            await service.renewSession()
            let one = elapsed(since: start)
            world.clock.advance(by: 7_200)
            await world.simulator.resetCounters()
            start = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<1_000 { group.addTask { try await service.validAccessToken().token } }
                try await group.waitForAll()
            }
            let crowd = elapsed(since: start)
            grants.insert(await world.simulator.refreshGrantCount)
            if round > 0 {   // round 0 warms up
                floors.append(one)
                crowds.append(crowd)
            }
        }
        let floor = Rounds(values: floors), crowd = Rounds(values: crowds)
        print(floor.line("floor: one renewal round trip (renewSession, 50 ms provider latency)"))
        print(crowd.line("1,000 concurrent validAccessToken on an expired token, until the last returns"))
        print(crowd.ratio(to: floor).line("ratio last caller / one renewal (per round)", unit: "×"))
        print("refresh grants per 1,000-caller round: \(grants.sorted())")
    }
}
