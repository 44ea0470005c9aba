import Foundation

/// The variables the tool reads (see ``CLIOptions/defaultStore(_:)``), taken one by one: copying the whole process
/// environment into a dictionary is work a short command does not need.
let environment = ["REGSTATE_HOME", "HOME"].reduce(into: [String: String]()) { found, name in
    if let value = getenv(name) { found[name] = String(cString: value) }
}

/// The `regstate` command: see ``CLI`` and ``Usage``.
let status = await CLI.run(arguments: Array(CommandLine.arguments.dropFirst()),
                           environment: environment, terminal: StandardTerminal())
exit(status)
