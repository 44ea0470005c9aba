import Foundation

/// The `regstate` command: see ``CLI`` and ``Usage``.
let status = await CLI.run(arguments: Array(CommandLine.arguments.dropFirst()),
                           environment: ProcessInfo.processInfo.environment, terminal: StandardTerminal())
exit(status)
