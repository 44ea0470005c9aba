import Dispatch
import Foundation

/// The variables the tool reads (see ``CLIOptions/defaultStore(_:)``), taken one by one: copying the whole process
/// environment into a dictionary is work a short command does not need.
let environment = ["REGSTATE_HOME", "HOME"].reduce(into: [String: String]()) { found, name in
    if let value = getenv(name) { found[name] = String(cString: value) }
}

/// The `regstate` command: see ``CLI`` and ``Usage``. The run, and the engine actors it calls, run on the main thread
/// (``MainThreadExecutor``): a short command hands nothing from thread to thread and exits where it finishes.
let arguments = Array(CommandLine.arguments.dropFirst())
let invocation = Invocation.detect(argument0: CommandLine.arguments.first ?? "regstate")
let command = { @Sendable [arguments, environment, invocation] in
    await CLI.run(arguments: arguments, environment: environment, terminal: StandardTerminal(), invocation: invocation)
}
if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
    let executor = MainThreadExecutor()
    CommandExecutor.preferred = executor
    executor.run(command)
} else {
    Task.detached { exit(await command()) }
    dispatchMain()
}
