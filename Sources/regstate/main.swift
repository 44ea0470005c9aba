import Dispatch
import Foundation

/// The variables the tool reads (see ``CLIOptions/defaultStore(_:)``), taken one by one: copying the whole process
/// environment into a dictionary is work a short command does not need.
let environment = ["REGSTATE_HOME", "HOME"].reduce(into: [String: String]()) { found, name in
    if let value = getenv(name) { found[name] = String(cString: value) }
}

/// The `regstate` command: see ``CLI`` and ``Usage``. The run exits from wherever it finishes, without hopping back
/// to the main thread first (a hop that costs a thread wake-up or a new thread at the very end of every command).
let arguments = Array(CommandLine.arguments.dropFirst())
Task.detached {
    exit(await CLI.run(arguments: arguments, environment: environment, terminal: StandardTerminal()))
}
dispatchMain()
