import Foundation
import RegState
import RegStateOngoingAccess
import RegStateSimulator

/// The `regstate` tool: parses the command line, builds the engine and runs one command.
enum CLI {
    /// Runs the tool and returns its exit status.
    ///
    /// - Parameters:
    ///   - arguments: The arguments without the program name.
    ///   - environment: The process environment (`REGSTATE_HOME`, `HOME`).
    ///   - terminal: Where input comes from and output goes.
    ///   - providerTransport: How a real provider is reached; `nil` is URLSession (tests pass a simulator's).
    ///   - invocation: How the tool was started, for the commands its hints print.
    static func run(arguments: [String], environment: [String: String], terminal: any Terminal,
                    providerTransport: (any HTTPTransport)? = nil, invocation: Invocation = .onPath) async -> Int32 {
        var options: CLIOptions
        do {
            options = try CLIOptions.parse(arguments, environment: environment)
        } catch {
            return usageFailure(error, invocation, terminal)
        }
        options.invocation = invocation
        if options.help {
            terminal.write(options.commandNamed ? Usage.text(for: options.command) : Usage.tool(invocation))
            return ExitCode.success
        }
        if options.command == .ongoingAccess { return await OngoingAccessCommand.run(options, terminal: terminal) }
        let environment: CLIEnvironment
        do {
            environment = try CLIEnvironment.make(options, providerTransport: providerTransport)
        } catch let error as UsageError {
            return usageFailure(error, invocation, terminal)
        } catch let error as StoreUnusable {
            // The run's failure, not the command line's: exit 1 with the reason, and no pointer to --help.
            terminal.note("regstate: \(error.message).")
            return ExitCode.failure
        } catch {
            terminal.note("regstate: \(error.localizedDescription)")
            return ExitCode.failure
        }
        let console = Console(terminal: terminal, json: options.json)
        let printer = await EventPrinter.attach(to: environment.service, console: console)
        let run = CommandRun(options: options, environment: environment, console: console, printer: printer)
        let status = switch options.command {
        case .walkthrough: await run.walkthrough()
        case .status: await run.status()
        case .events: await run.events()
        case .logout: await run.logout()
        case .clearState: await run.clearState()
        case .devices: await run.devices()
        case .call: await run.call()
        case .updateToken: await run.updateToken()
        case .notifyTransient: await run.notifyTransient()
        case .deviceLogin: await run.deviceLoginCommand()
        case .stepUp: await run.stepUp()
        case .ongoingAccess: ExitCode.usage  // dispatched above
        }
        // A launch renewal that outlived the launch budget is still running: exiting now could lose a refresh token
        // the provider already rotated. Its result (C or E) is printed as it lands.
        await environment.service.finishPendingRenewal()
        // The launch's Check Registration runs in the background; let it finish before the process ends.
        _ = await environment.service.launchRegistrationCheck()
        await printer.drain(environment.service)
        return status
    }

    /// Says what was wrong with the command line and how to see the right one; exit status 2.
    static func usageFailure(_ error: UsageError, _ invocation: Invocation, _ terminal: any Terminal) -> Int32 {
        terminal.note("regstate: \(error.message). For the commands and options, run: \(invocation.typed("--help"))")
        return ExitCode.usage
    }
}
