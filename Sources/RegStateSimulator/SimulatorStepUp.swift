import Foundation

/// How the simulated provider treats `max_age` and `acr_values` (OpenID Connect Core §3.1.2.1): honouring them, as a
/// conforming provider does, or the ways a provider falls short that a client must catch.
public enum SimulatorStepUp: Sendable, Equatable {
    /// A browser session older than `max_age`, or of a weaker class than `acr_values` asks for, makes the user sign
    /// in again (`auth_time` moves to now, `acr` is the first requested class the provider offers).
    case honours
    /// The browser session is reused whatever `max_age` and `acr_values` say: `auth_time` stays the session's and
    /// `acr` its class.
    case ignores
    /// As ``ignores``, and the ID token carries no `auth_time` at all.
    case omitsAuthTime
}
