import Foundation
import RegState

/// Prints each lettered event as it arrives, in order, exactly once, and lets the command wait until every event
/// already emitted has been printed (so nothing is lost when the process exits, and prompts follow their events).
actor EventPrinter {
    private let console: Console
    private var printed = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a printer writing through `console`.
    init(console: Console) {
        self.console = console
    }

    /// Subscribes to `service` (before it starts, so no event is missed) and prints in the background.
    static func attach(to service: RegStateService, console: Console) async -> EventPrinter {
        let printer = EventPrinter(console: console)
        let stream = await service.events()
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            Task(executorPreference: MainThreadExecutor.preferred) { await printer.consume(stream) }
        } else {
            Task { await printer.consume(stream) }
        }
        return printer
    }

    /// Waits until every event `service` has emitted so far has been printed.
    func drain(_ service: RegStateService) async {
        let target = await service.emittedEventCount
        guard printed < target else { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }

    private func consume(_ stream: AsyncStream<RegStateEvent>) async {
        for await event in stream {
            console.event(event)
            printed += 1
            let ready = waiters.filter { $0.count <= printed }
            waiters.removeAll { $0.count <= printed }
            for waiter in ready { waiter.continuation.resume() }
        }
    }
}
