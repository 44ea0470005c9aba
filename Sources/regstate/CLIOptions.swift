import Foundation
import RegState
import RegStateOngoingAccess

/// Everything the command line asked for, parsed and checked: which command, where the store is, how to talk.
struct CLIOptions: Sendable, Equatable {
    /// The command to run; `walkthrough` when none was named.
    var command: Command = .walkthrough
    /// Whether the command was named (so `--help` describes it rather than the tool).
    var commandNamed = false
    /// `--help`/`-h`: print the usage of ``command`` (or of the tool) and exit 0.
    var help = false
    /// `--store DIR`, else `$REGSTATE_HOME`, else `~/.local/state/regstate`: its absolute path, kept as a string so
    /// that a command on a plain path (see `PlainPath`) never runs `URL`'s path code.
    var storePath: String
    /// ``storePath`` as a URL.
    var store: URL { URL(fileURLWithPath: storePath, isDirectory: true) }
    /// Whether `--store` was given (a hint then repeats it).
    var storeGiven = false
    /// How this run was started, for the commands its hints print (set after parsing).
    var invocation = Invocation.onPath
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
    /// `--device-authorization-endpoint URL`: where a provider whose discovery does not announce one serves the
    /// device authorization grant (RFC 8628).
    var deviceAuthorizationEndpoint: URL?
    /// `--scope SCOPES` (repeatable, space- or comma-separated): the scopes to ask for instead of
    /// `openid profile email offline_access`; `openid` is always asked for.
    var scopes: [String]?
    /// `--backend URL`: a real registration backend.
    var backend: URL?
    /// `--dpop off|auto|required`: whether the session's tokens are bound to the installation's DPoP key.
    var dpop: DPoPMode = .whenOffered
    /// `--par off|auto|required`: whether authorization requests are pushed (RFC 9126).
    var pushedAuthorization: PushedAuthorizationMode = .whenOffered
    /// The `--sim-*` knobs, for this run only.
    var simulator = SimulatorKnobs()
    /// `ongoing-access authorize|fetch` and its options.
    var ongoing = OngoingAccessOptions()
    /// `--host-mode`: the host app renews the session; implied by `update-token` and `notify-transient`.
    var hostMode = false
    /// `call [PATH]`: the backend path to call (default `/v1/resource/tickets`).
    var callPath: String?
    /// `step-up --max-age SECONDS --acr-values "A B"`: what the step-up asks for (what `call` printed).
    var stepUpRequirement = AuthenticationRequirement()
    /// `notify-transient no-internet|sso-unspecified`.
    var transientIssue: TransientIssue?
    /// `devices remove ID`: `remove` was given (the ID follows).
    var removesDevice = false
    /// `devices remove ID`: the device to remove.
    var deviceID: String?
    /// `--check-registration`: run the registration design's Check Registration after the launch. The walkthrough always does; the
    /// other commands only when asked, so that a quick `status` opens no simulated world and sends nothing.
    var checksRegistration = false

    /// Whether the launch runs the registration design's Check Registration (`nil`: the engine's default, on with a backend).
    var registrationCheckSetting: Bool? { command == .walkthrough || checksRegistration ? nil : false }

    /// Who renews: the host with `--host-mode` or a host-only command, RegState otherwise.
    var sessionSource: SessionSource { hostMode || command.isHostOnly ? .host : .selfRenewing }

    /// The path `call` uses when none is given: the simulator's resource endpoint.
    static let defaultCallPath = "/v1/resource/tickets"

    /// The redirect URI used with a real provider when none is given.
    static let defaultRedirectURI = "com.example.app:/callback"
}
