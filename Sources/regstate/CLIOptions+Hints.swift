import Foundation

extension CLIOptions {
    /// The options that pick this run's session: the store when it was given, the platform, the provider, the
    /// backend and host mode. A hint repeats them so that the command it prints finds the same session.
    var sessionArguments: [String] {
        var arguments: [String] = []
        if storeGiven { arguments += ["--store", storePath] }
        if platform == .web { arguments += ["--platform", "web"] }
        if let issuer { arguments += ["--issuer", issuer.absoluteString] }
        if let clientID { arguments += ["--client-id", clientID] }
        if let redirectURI { arguments += ["--redirect-uri", redirectURI.absoluteString] }
        if let backend { arguments += ["--backend", backend.absoluteString] }
        if hostMode || command.isHostOnly { arguments.append("--host-mode") }
        return arguments
    }

    /// The command line that runs `words` (a command and its arguments) on this run's session, as the user
    /// started this tool: `regstate status`, `swift run regstate status --store /tmp/s`, …
    func typed(_ words: String) -> String {
        invocation.typed(words, sessionArguments)
    }
}
