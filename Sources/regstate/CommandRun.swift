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

    /// What to type to get a session: the walkthrough, or in host mode an ID token handed in.
    var registerHint: String {
        options.sessionSource == .host
            ? "To hand in the host's ID token (one line on standard input), run: \(options.typed("update-token"))"
            : "To register, run: \(options.typed("walkthrough"))"
    }

    /// Waits until every event emitted so far is printed, so the next line follows them.
    func drain() async {
        await printer.drain(service)
    }
}
