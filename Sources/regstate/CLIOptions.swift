import Foundation

/// Everything the command line asked for, parsed and checked: which command, where the store is, how to talk.
struct CLIOptions: Sendable, Equatable {
    /// The command to run; `walkthrough` when none was named.
    var command: Command = .walkthrough
    /// `--help`/`-h`: print the usage of ``command`` (or of the tool) and exit 0.
    var help = false
    /// `--store DIR`, else `$REGSTATE_HOME`, else `~/.local/state/regstate`.
    var store: URL
    /// `--json`: lettered events as JSON lines on stdout, every other text on stderr.
    var json = false
    /// `--platform native|web`.
    var platform: PlatformChoice = .native
    /// `--issuer URL`: a real OpenID Connect provider; `nil` runs the embedded simulator.
    var issuer: URL?
    /// `--client-id ID`, required with `--issuer`.
    var clientID: String?
    /// `--redirect-uri URI`; `nil` means `com.example.app:/callback` (or a loopback URI with `--loopback`).
    var redirectURI: URL?
    /// `--loopback`: catch the redirect on 127.0.0.1.
    var loopback = false
    /// `--backend URL`: a real registration backend.
    var backend: URL?
    /// The `--sim-*` knobs, for this run only.
    var simulator = SimulatorKnobs()

    /// The redirect URI used with a real provider when none is given.
    static let defaultRedirectURI = "com.example.app:/callback"
}

/// The commands of the `regstate` tool.
enum Command: String, Sendable, CaseIterable {
    /// Registration step by step (the default).
    case walkthrough
    /// Settle and print the state.
    case status
    /// Print the journal, redacted.
    case events
    /// Revoke the refresh token and clear local data, online only.
    case logout
    /// Wipe local state.
    case clearState = "clear-state"
}

/// `--platform`: native platforms run third-party authentication, web does not (Active **A**).
enum PlatformChoice: String, Sendable, CaseIterable {
    /// This machine, native.
    case native
    /// A non-native web build.
    case web
}

/// The simulator's knobs as the command line sets them; `nil` keeps the simulator's default.
struct SimulatorKnobs: Sendable, Equatable {
    /// `--sim-access-ttl SECONDS`.
    var accessTokenLifetime: TimeInterval?
    /// `--sim-refresh-ttl SECONDS`.
    var refreshTokenLifetime: TimeInterval?
    /// `--sim-offline`.
    var offline = false
    /// `--sim-deny-refresh`.
    var denyRefresh = false
    /// `--sim-max-devices N`.
    var maxDevices: Int?

    /// Whether any knob was set.
    var isEmpty: Bool { self == SimulatorKnobs() }
}

/// Bad usage: an unknown command or option, a missing or malformed value, a store that cannot be used. Exit 2.
struct UsageError: Error, Sendable, Equatable {
    /// One line for people, without the `regstate:` prefix.
    var message: String

    /// Creates the error.
    init(_ message: String) {
        self.message = message
    }
}
