import Foundation
import RegState
import RegStateSimulator

extension CLIOptions {
    /// Parses the arguments after the program name; options may come before or after the command, as `--name value`
    /// or `--name=value`.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the program name.
    ///   - environment: The process environment, for `REGSTATE_HOME` and `HOME`.
    /// - Throws: ``UsageError`` for an unknown command or option, a missing or malformed value, or options that do
    ///   not go together.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> CLIOptions {
        var options = CLIOptions(storePath: defaultStore(environment))
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" {
                options.help = true
                continue
            }
            // The word after `remove` is the ID whatever it starts with: a base64url ID may begin with `-`.
            if options.command == .devices, options.removesDevice, options.deviceID == nil {
                options.deviceID = argument
                continue
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                if options.command == .ongoingAccess, options.ongoing.action == nil {
                    try options.ongoing.setAction(argument)
                    continue
                }
                if options.command == .call, options.callPath == nil {
                    guard argument.hasPrefix("/") else { throw UsageError("call needs a path starting with /") }
                    options.callPath = argument
                    continue
                }
                if options.command == .devices, options.deviceID == nil {
                    guard argument == "remove", !options.removesDevice else {
                        throw UsageError("devices takes 'remove ID', not '\(argument)'")
                    }
                    options.removesDevice = true
                    continue
                }
                if options.command == .notifyTransient, options.transientIssue == nil {
                    options.transientIssue = try transientIssue(argument)
                    continue
                }
                guard !options.commandNamed else { throw UsageError("unexpected argument '\(argument)'") }
                guard let command = Command(rawValue: argument) else {
                    let hint = NearestName.among(Command.allCases.map(\.rawValue), to: argument).map { " (did you mean \($0)?)" }
                    throw UsageError("unknown command '\(argument)'" + (hint ?? ""))
                }
                options.commandNamed = true
                options.command = command
                continue
            }
            let (name, inlineValue) = split(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError("option \(name) needs a value")
                }
                return next
            }
            func flag() throws(UsageError) -> Bool {
                guard inlineValue == nil else { throw UsageError("option \(name) takes no value") }
                return true
            }
            switch name {
            case "--store":
                let path = try value()
                guard !path.isEmpty else { throw UsageError("option --store needs a directory") }
                options.storePath = absolute(expandingTilde(path))
                options.storeGiven = true
            case "--json": options.json = try flag()
            case "--check-registration": options.checksRegistration = try flag()
            case "--platform": options.platform = try choice(try value(), for: name, among: "native or web")
            case "--issuer": options.issuer = try httpURL(try value(), for: name)
            case "--client-id":
                let id = try value()
                guard !id.isEmpty else { throw UsageError("option --client-id needs a value") }
                options.clientID = id
            case "--redirect-uri":
                let text = try value()
                guard let url = URL(string: text), url.scheme != nil else {
                    throw UsageError("option --redirect-uri needs a URI, not '\(text)'")
                }
                options.redirectURI = url
            case "--loopback": options.loopback = try flag()
            case "--device-authorization-endpoint":
                options.deviceAuthorizationEndpoint = try httpURL(try value(), for: name)
            case "--host-mode": options.hostMode = try flag()
            case "--sim-api-rejects": options.simulator.apiRejects = try flag()
            case "--sim-keychain": options.simulator.keychain = try flag()
            case "--sim-api-forces-logout": options.simulator.apiForcesLogout = try flag()
            case "--max-age", "--sim-api-max-age":
                let text = try value()
                guard let seconds = Int(text), seconds >= 0, seconds < Int(Int32.max) else {
                    throw UsageError("option \(name) needs a whole number of seconds, not '\(text)'")
                }
                if name == "--max-age" { options.stepUpRequirement.maxAge = seconds } else { options.simulator.apiDemand.maxAge = seconds }
            case "--acr-values", "--sim-api-acr":
                let values = try value().split(separator: " ").map(String.init)
                guard !values.isEmpty, values.allSatisfy({ $0.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C } })
                else { throw UsageError("option \(name) needs space-separated authentication classes") }
                if name == "--acr-values" {
                    options.stepUpRequirement.acrValues = values
                    options.stepUpRequirement.acrRequired = true
                } else {
                    options.simulator.apiDemand.acrValues = values
                }
            case "--sim-step-up":
                let text = try value()
                switch text {
                case "honours": options.simulator.stepUp = .honours
                case "ignores": options.simulator.stepUp = .ignores
                case "omits-auth-time": options.simulator.stepUp = .omitsAuthTime
                default: throw UsageError("option --sim-step-up must be honours, ignores or omits-auth-time, not '\(text)'")
                }
            case "--scope":
                let scopes = try value().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                guard !scopes.isEmpty, scopes.allSatisfy(Self.isScopeToken) else {
                    throw UsageError("option --scope needs scope names separated by spaces or commas")
                }
                options.scopes = (options.scopes ?? []) + scopes
            case "--backend": options.backend = try httpURL(try value(), for: name)
            case "--sim-access-ttl": options.simulator.accessTokenLifetime = try seconds(try value(), for: name)
            case "--sim-refresh-ttl": options.simulator.refreshTokenLifetime = try seconds(try value(), for: name)
            case "--sim-reuse-grace": options.simulator.reuseGrace = try seconds(try value(), for: name)
            case "--dpop": options.dpop = try choice(try value(), for: name, among: "off, auto or required")
            case "--sim-dpop":
                options.simulator.dpop = try choice(try value(), for: name, among: "off, allowed or required") { $0 != .advertisedOnly }
            case "--sim-dpop-nonce": options.simulator.dpopNonce = try flag()
            case "--par": options.pushedAuthorization = try choice(try value(), for: name, among: "off, auto or required")
            case "--sim-par":
                options.simulator.pushedAuthorization = try choice(try value(), for: name, among: "off, offered or required")
            case "--sim-par-ttl": options.simulator.pushedRequestLifetime = try seconds(try value(), for: name)
            case "--sim-answer-delay": options.simulator.answerDelay = try seconds(try value(), for: name)
            case "--sim-advance": options.simulator.advance = try seconds(try value(), for: name)
            case "--sim-time":
                let text = try value()
                guard let epoch = TimeInterval(text), epoch.isFinite, epoch > 0, epoch < 1e11 else {
                    throw UsageError("option --sim-time needs seconds since 1970, not '\(text)'")
                }
                options.simulator.fixedTime = Date(timeIntervalSince1970: epoch)
            case "--sim-offline": options.simulator.offline = try flag()
            case "--sim-deny-refresh": options.simulator.denyRefresh = try flag()
            case "--sim-max-devices":
                let text = try value()
                guard let count = Int(text), count >= 0 else {
                    throw UsageError("option --sim-max-devices needs a whole number, not '\(text)'")
                }
                options.simulator.maxDevices = count
            case "--scope-from", "--scope-to": try options.ongoing.setScope(name, try value())
            case "--no-auto-recover": options.ongoing.noAutoRecover = try flag()
            default:
                throw UsageError("unknown option '\(name)'")
            }
        }
        if !options.help { try options.checkCombinations() }
        return options
    }

    /// Options that only make sense together.
    private func checkCombinations() throws(UsageError) {
        try ongoing.check(command: command, issuer: issuer)
        if removesDevice, deviceID == nil { throw UsageError("devices remove needs the ID of a device: the devices command lists them") }
        if command == .notifyTransient, transientIssue == nil {
            throw UsageError("notify-transient needs no-internet or sso-unspecified")
        }
        if issuer != nil {
            guard clientID != nil else { throw UsageError("option --issuer needs --client-id") }
            guard simulator.isEmpty else { throw UsageError("the --sim-* options apply to the simulator, not to --issuer") }
        } else {
            for (given, name) in [(clientID != nil, "--client-id"), (redirectURI != nil, "--redirect-uri"),
                                  (loopback, "--loopback"), (backend != nil, "--backend"),
                                  (deviceAuthorizationEndpoint != nil, "--device-authorization-endpoint")] where given {
                throw UsageError("option \(name) needs --issuer (the simulator has its own provider and backend)")
            }
        }
        if loopback, let redirectURI {
            guard redirectURI.scheme == "http", redirectURI.host == "127.0.0.1" else {
                throw UsageError("with --loopback, --redirect-uri must be http://127.0.0.1:PORT/PATH")
            }
        }
    }

    /// `no-internet` or `sso-unspecified`.
    private static func transientIssue(_ text: String) throws(UsageError) -> TransientIssue {
        switch text {
        case "no-internet": .noInternet
        case "sso-unspecified": .ssoUnspecifiedIssue
        default: throw UsageError("notify-transient takes no-internet or sso-unspecified, not '\(text)'")
        }
    }

    /// RFC 6749 §3.3: a scope token is printable ASCII without space, `"` or `\\`.
    static func isScopeToken(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x21 && $0.value <= 0x7E && $0 != "\"" && $0 != "\\" }
    }

    /// `path` with a leading `~` or `~user` expanded as `NSString.expandingTildeInPath` does; any other path as it is,
    /// without a round trip through `NSString` (whose path code loads Unicode tables a short command does not need).
    static func expandingTilde(_ path: String) -> String {
        guard path.utf8.first == UInt8(ascii: "~") else { return path }
        return NSString(string: path).expandingTildeInPath
    }

    /// `$REGSTATE_HOME`, else `$HOME/.local/state/regstate`.
    static func defaultStore(_ environment: [String: String]) -> String {
        if let home = environment["REGSTATE_HOME"], !home.isEmpty {
            return absolute(expandingTilde(home))
        }
        if let home = environment["HOME"], PlainPath.isPlain(home) { return home + "/.local/state/regstate" }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/state/regstate", isDirectory: true).path
    }

    /// The absolute path of the directory at `path`, as `URL(fileURLWithPath:isDirectory:)` gives it; a plain path
    /// is its own.
    private static func absolute(_ path: String) -> String {
        PlainPath.isPlain(path) ? path : URL(fileURLWithPath: path, isDirectory: true).path
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func httpURL(_ text: String, for name: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host?.isEmpty == false
        else { throw UsageError("option \(name) needs an http(s) URL, not '\(text)'") }
        return url
    }

    /// The option's value as one of `Choice`'s raw values that `allowed` accepts; `among` lists them for the error.
    private static func choice<Choice: RawRepresentable<String>>(
        _ text: String, for name: String, among names: String, allowed: (Choice) -> Bool = { _ in true }
    ) throws(UsageError) -> Choice {
        guard let choice = Choice(rawValue: text), allowed(choice) else {
            throw UsageError("option \(name) must be \(names), not '\(text)'")
        }
        return choice
    }

    private static func seconds(_ text: String, for name: String) throws(UsageError) -> TimeInterval {
        guard let value = TimeInterval(text), value.isFinite, value > 0 else {
            throw UsageError("option \(name) needs a positive number of seconds, not '\(text)'")
        }
        return value
    }
}
