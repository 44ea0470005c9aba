import Foundation
import Testing
@testable import RegState
import RegStateTesting
import RegStateSimulator

/// A backend that rejects every token: the cost is bounded across launches and processes, because the hold of a token
/// renewed for a rejection lives in the store (shared by every process, kept across launches), and a replaced security
/// token is retired at the backend where it offers that.
@Suite("The cost of a backend that rejects every token, across launches and processes")
struct RejectionCostTests {
    /// One case of the rule: `calls` rejected calls spread over `launches` launches, each with `processes` services
    /// on the one store calling at once, `gap` seconds of the clock between launches.
    struct Case: Sendable, CustomTestStringConvertible {
        var carrier: TokenCarrier
        var calls: Int
        var launches: Int
        var processes: Int
        var gap: TimeInterval
        var testDescription: String { "\(carrier.rawValue): \(calls) calls, \(launches) launches × \(processes), gap \(Int(gap)) s" }
    }

    static let cases: [Case] = TokenCarrier.allCases.flatMap { carrier in
        [Case(carrier: carrier, calls: 9, launches: 9, processes: 1, gap: 0),
         Case(carrier: carrier, calls: 12, launches: 4, processes: 3, gap: 0),
         Case(carrier: carrier, calls: 8, launches: 1, processes: 4, gap: 0),
         Case(carrier: carrier, calls: 10, launches: 5, processes: 2, gap: 10),
         Case(carrier: carrier, calls: 12, launches: 6, processes: 2, gap: 31),
         Case(carrier: carrier, calls: 16, launches: 8, processes: 2, gap: 200)]
    }

    /// The most renewals for rejections `elapsed` seconds can hold: one, then one more each time a hold of the chain
    /// (30 s, 60 s, … up to 15 min) has passed.
    static func bound(elapsed: TimeInterval) -> Int {
        var renewals = 1
        var hold = RejectionHold.after(nil, at: Date(timeIntervalSince1970: 0))
        while hold.until.timeIntervalSince1970 <= elapsed {
            renewals += 1
            hold = .after(hold, at: hold.until)
        }
        return renewals
    }

    @Test("N rejected calls over K launches and P processes: at most the bounded renewals, one live security token",
          arguments: cases)
    func boundedCost(_ rule: Case) async throws {
        let app = try await SelfRenewingApp()
        let device = app.device
        await device.simulator.setResourceTakesSecurityToken(rule.carrier == .securityToken)
        await device.simulator.setResourceRejectsEveryToken(true)
        let policy = rule.carrier == .securityToken ? app.policy
            : TokenPolicy(validatingURLs: [device.world.backendURL])
        let exchangesBefore = await app.exchanges()
        let start = device.clock.now()
        var rejected = 0
        for launch in 0..<rule.launches {
            if launch > 0 { device.clock.advance(by: rule.gap) }
            var services: [RegStateService] = []
            for _ in 0..<rule.processes {
                let service = device.launch()
                await service.start()
                services.append(service)
            }
            let perLaunch = rule.calls / rule.launches
            let resource = app.resource
            rejected += await withTaskGroup(of: Int.self) { group in
                for index in 0..<perLaunch {
                    let api = AuthorizedTransport(base: device.simulator.transport,
                                                  service: services[index % services.count], policy: policy)
                    group.addTask {
                        do {
                            return try await api.send(resource).status == 401 ? 1 : 0
                        } catch {
                            return 1
                        }
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(rejected == rule.calls / rule.launches * rule.launches, "every call is refused")
        let elapsed = device.clock.now().timeIntervalSince(start)
        let renewals = switch rule.carrier {
        case .securityToken: await app.exchanges() - exchangesBefore
        case .accessToken: await device.simulator.refreshGrantCount
        }
        #expect(renewals >= 1)
        #expect(renewals <= Self.bound(elapsed: elapsed), "renewals: \(renewals), elapsed \(elapsed) s")
        #expect(await device.simulator.liveSecurityTokenCount(for: "alice@example.com") == 1)
    }

    @Test("the hold is read as written, and a record the previous format wrote (no hold) reads with none")
    func holdRoundTrip() throws {
        var record = StoredCredentials(stage: .confirmed, accessToken: "a")
        record.securityToken = "s"
        record.accessTokenHold = RejectionHold.after(nil, at: Date(timeIntervalSince1970: 1_800_000_000))
        record.securityTokenHold = .after(record.accessTokenHold, at: Date(timeIntervalSince1970: 1_800_000_100))
        #expect(StoredCredentials.read(record.encoded) == record)
        #expect(String(decoding: record.encoded, as: UTF8.self) == #"{"access_token":"a","access_token_hold":"#
            + #"{"backoff":30,"until":1800000030},"security_token":"s","security_token_hold":"#
            + #"{"backoff":60,"until":1800000160},"stage":"confirmed"}"#)
        #expect(record.securityTokenHold?.backoff == 60)
        let previous = #"{"access_token":"a","security_token":"s","stage":"confirmed"}"#
        let read = try #require(StoredCredentials.read(Data(previous.utf8)))
        #expect(read.accessTokenHold == nil && read.securityTokenHold == nil)
        let damaged = #"{"access_token":"a","stage":"confirmed","security_token_hold":{"until":1e308,"backoff":30}}"#
        #expect(StoredCredentials.read(Data(damaged.utf8)) == nil)
    }

    @Test("a store the previous format wrote: the first rejection is renewed once and held from then on, across launches")
    func previousFormatStore() async throws {
        let app = try await SelfRenewingApp()
        let written = try #require(try app.device.store.data(forKey: "credentials"))
        #expect(!String(decoding: written, as: UTF8.self).contains("_hold"), "the record is in the previous format")
        await app.device.simulator.setResourceRejectsEveryToken(true)
        let held = RegStateServiceError.rejectionHeld(until: app.device.clock.now().addingTimeInterval(30))
        for launch in 0..<3 {
            let service = app.device.launch()
            await service.start()
            let api = AuthorizedTransport(base: app.device.simulator.transport, service: service, policy: app.policy)
            await #expect(throws: launch == 0 ? .rejectedAfterRenewal : held) { _ = try await api.send(app.resource) }
        }
        #expect(await app.exchanges() == 2)
        let data = try #require(try app.device.store.data(forKey: "credentials"))
        let stored = try #require(StoredCredentials.read(data))
        #expect(stored.securityTokenHold?.backoff == RejectionHold.first)
    }

    @Test("a backend without retirement: nothing is sent to retire, and a replaced token lives until it expires")
    func withoutRetirement() async throws {
        let app = try await SelfRenewingApp { $0.offersSecurityTokenRetirement = false }
        await app.device.simulator.setResourceRejectsEveryToken(true)
        await #expect(throws: RegStateServiceError.rejectedAfterRenewal) { _ = try await app.api.send(app.resource) }
        #expect(await app.device.simulator.requestLog.filter { $0.hasPrefix("DELETE ") }.isEmpty)
        #expect(await app.device.simulator.liveSecurityTokenCount(for: "alice@example.com") == 2)
    }
}
