import RegState

/// One command's run: the options, the wired engine and where its text goes.
struct CommandRun: Sendable {
    /// The parsed options.
    let options: CLIOptions
    /// The engine and, on the simulator, the world.
    let environment: CLIEnvironment
    /// Output rules.
    let console: Console
    /// The lettered-event printer, subscribed before anything started.
    let printer: EventPrinter

    /// The engine.
    var service: RegStateService { environment.service }

    /// Waits until every event emitted so far is printed, so the next line follows them.
    func drain() async {
        await printer.drain(service)
    }
}
