import Foundation
import RegState

/// The memory world: one long life per process, event subscribers coming and going, and the retained-counts bound.
extension SimulationRun {
    /// Each step, one process's app opens a new event subscriber or cancels one it holds.
    func churnSubscribers() async {
        guard let watch = memoryWatch else { return }
        let index = worldRandom.below(slots.count)
        let incarnation = slots[index].incarnation
        guard let service = slots[index].service, liveness.isAlive(incarnation) else { return }
        var open = watch.listeners[incarnation, default: []]
        if open.count < MemoryWatch.maximumListeners, open.isEmpty || worldRandom.chance(50) {
            let stream = await service.events()
            open.append(Task.detached { for await _ in stream {} })
            ledger.note("act   p\(incarnation) subscribes (\(open.count) open)")
        } else {
            let task = open.remove(at: worldRandom.below(open.count))
            task.cancel()
            watch.cancelled[incarnation, default: []].append((currentStep, task))
            ledger.note("act   p\(incarnation) unsubscribes (\(open.count) open)")
        }
        watch.listeners[incarnation] = open
    }

    /// The memory world's meaning of an action: a crash or a launch of a live process lets a subscriber come or go
    /// instead (so a life lasts), a dead one (a crash at a system call) is launched again, the disk's crash faults
    /// are off, and network faults, outages and a down provider are milder and shorter, and the provider sets no device or token limit (so sessions
    /// begin again and again); every other action is the common one.
    func performInMemoryWorld(_ action: SimulationAction) async -> Bool {
        switch action {
        case .crash(let index, _), .launch(let index):
            if slots[index].service == nil || !liveness.isAlive(slots[index].incarnation) {
                memoryWatch?.forget(slots[index].incarnation)
                await launch(index, reason: "relaunch of a dead process")
            } else {
                await churnSubscribers()
            }
            return true
        case .networkFaults(let percent):
            // Faults, outages and a down provider come and go in short spells: a long life keeps signing in again.
            network.faultPercent = min(percent, 10)
            ledger.note("act   network faults \(network.faultPercent)%")
            return true
        case .toggleOffline:
            network.isOffline = !network.isOffline && worldRandom.chance(30)
            ledger.note("act   network \(network.isOffline ? "offline" : "online")")
            return true
        case .providerDown(let drawn):
            let down = drawn && worldRandom.chance(30) && !options.disabledFaults.contains(.providerDown)
            await simulator.setProviderDown(down)
            ledger.note("act   provider \(down ? "down (500)" : "up")")
            return true
        case .idle(let turns, .deviceLimit), .idle(let turns, .tokenLimit):
            // No device or token limit: each new sign-in registers the device again, and a life has hundreds.
            ledger.note("act   idle \(turns) turn(s)")
            for _ in 0..<turns { await DeterministicScheduler.yield() }
            return true
        case .diskFaults(let write, _):
            disk.writeFailurePercent = options.disabledFaults.contains(.diskWrite) ? 0 : write
            disk.crashPercent = 0
            ledger.note("act   disk write failures \(disk.writeFailurePercent)% (no crashes in the memory world)")
            return true
        default:
            return false
        }
    }

    /// memory-bounded: every live service retains at most what the app holds (its open subscribers, plus cancelled
    /// ones within their grace) and a few flights, nonces and remembered logins.
    func checkRetained() async {
        guard let watch = memoryWatch else { return }
        for slot in slots {
            guard let service = slot.service, liveness.isAlive(slot.incarnation) else { continue }
            let counts = await service.retainedCounts
            let open = watch.listeners[slot.incarnation, default: []].count
            let subscriberBound = open + watch.pendingCancels(of: slot.incarnation, at: currentStep)
            watch.largest = max(watch.largest, counts.subscribers + counts.flights + counts.dpopNonces
                                + counts.ownedPendingLogins)
            var over: [String] = []
            if counts.subscribers > subscriberBound { over.append("subscribers \(counts.subscribers) > \(subscriberBound)") }
            if counts.flights > MemoryWatch.maximumFlights { over.append("flights \(counts.flights)") }
            if counts.dpopNonces > MemoryWatch.maximumNonces { over.append("DPoP nonces \(counts.dpopNonces)") }
            if counts.ownedPendingLogins > OwnedRecords.pendingLoginMemory {
                over.append("owned pending logins \(counts.ownedPendingLogins)")
            }
            if !over.isEmpty, watch.reported.insert(slot.incarnation).inserted {
                ledger.violation("memory-bounded", "p\(slot.incarnation) retains more than its app holds at step "
                                 + "\(currentStep): \(over.joined(separator: ", ")) (\(counts))")
            }
        }
    }
}
