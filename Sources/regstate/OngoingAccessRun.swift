import Foundation
import RegState
import RegStateOngoingAccess

/// One `ongoing-access` run: the two actions and their output.
struct OngoingAccessRun: Sendable {
    let options: CLIOptions
    let service: OngoingAccessService
    let tokenStore: OngoingAccessTokenStore
    let console: Console
    let printer: OngoingEventPrinter

    private var requestedScope: OngoingAccessScope? {
        let ongoing = options.ongoing
        guard ongoing.scopeFrom != nil || ongoing.scopeTo != nil else { return nil }
        return OngoingAccessScope(from: ongoing.scopeFrom, to: ongoing.scopeTo)
    }

    /// Asks for consent and stores the token.
    func authorize() async -> Int32 {
        do {
            let result = try await service.authorizeOngoingAccess(scope: requestedScope, oAuthToken: nil)
            await printer.drain(service)
            report(result)
            return ExitCode.success
        } catch {
            return await failed(error)
        }
    }

    /// Restores from the stored token, lists accounts and files, fetches the first file.
    func fetch() async -> Int32 {
        let record: OngoingAccessTokenStore.Record?
        do {
            record = try tokenStore.load()
        } catch {
            console.message("regstate: the stored ongoing-access token cannot be read (\(error.localizedDescription))")
            return ExitCode.failure
        }
        guard let record else {
            console.message("No ongoing-access token is stored. To consent first, run: \(options.typed("ongoing-access authorize"))")
            return ExitCode.registrationRequired
        }
        do {
            let result = try await service.authorizeOngoingAccess(scope: requestedScope ?? record.scope,
                                                                  oAuthToken: record.token)
            await printer.drain(service)
            report(result)
            let accounts = try await service.accounts()
            let files = try await service.files()
            var first: OngoingAccessFile?
            if let info = files.first { first = try await service.file(id: info.id) }
            if options.json {
                console.jsonLine(["accounts": .array(accounts.map(OngoingAccessText.json))])
                console.jsonLine(["files": .array(files.map(OngoingAccessText.json))])
                if let first { console.jsonLine(["file": OngoingAccessText.json(first.info), "content": first.content]) }
            } else {
                for account in accounts { console.result("Account \(account.id): \(account.name) (\(account.service))") }
                for file in files { console.result("File \(file.id): \(file.accountID), \(OngoingAccessText.day(file.date))") }
                if let first {
                    console.result("Fetched \(first.info.id): \(String(decoding: first.content.serialized(), as: UTF8.self))")
                }
                if files.isEmpty { console.result("No files in this scope.") }
            }
            return ExitCode.success
        } catch {
            return await failed(error)
        }
    }

    private func report(_ result: OngoingAccessAuthorization) {
        let token = result.oAuthToken
        let text = switch result.origin {
        case .consent: "Authorized with consent"
        case .restored: result.refreshed ? "Restored without the user; the access token was refreshed and the new token stored"
            : "Restored without the user; the stored token was still valid"
        }
        if options.json {
            console.jsonLine(["result": .string(result.origin.rawValue), "refreshed": .bool(result.refreshed),
                              "scope": result.session.scope.json,
                              "access_token_expires_at": .string(EventText.timestamp(token.accessTokenExpiresAt)),
                              "refresh_token_expires_at": .string(EventText.timestamp(token.refreshTokenExpiresAt))])
        } else {
            console.result("\(text). Scope: \(OngoingAccessText.scope(result.session.scope)). Access token expires "
                           + "\(EventText.timestamp(token.accessTokenExpiresAt)), refresh token "
                           + "\(EventText.timestamp(token.refreshTokenExpiresAt)).")
        }
    }

    private func failed(_ error: OngoingAccessError) async -> Int32 {
        await printer.drain(service)
        switch error {
        case .oAuthTokenExpired:
            console.message("The ongoing-access token has expired (fetch without --no-auto-recover consents again by"
                            + " itself). To consent again, run: \(options.typed("ongoing-access authorize"))")
            return ExitCode.registrationRequired
        default:
            console.message("Ongoing access failed: \(error.errorDescription ?? "unknown error")")
            return ExitCode.failure
        }
    }
}

/// How ongoing-access events and data read in the CLI.
enum OngoingAccessText {
    /// One event for people.
    static func human(_ event: OngoingAccessEvent) -> String {
        switch event {
        case .authorized(let granted): "Ongoing access authorized (scope \(scope(granted)))"
        case .restored(let refreshed): "Ongoing access restored" + (refreshed ? " (token refreshed)" : "")
        case .refreshed(let expiry): "Access token refreshed, expires \(EventText.timestamp(expiry))"
        case .reconsentNeeded: "The refresh token has expired: consent is needed again"
        case .expired: "The ongoing-access token has expired"
        case .failed(let error): "Ongoing access failed: \(error.errorDescription ?? "unknown error")"
        }
    }

    /// One event as JSON.
    static func json(_ event: OngoingAccessEvent) -> JSONValue {
        var object: [String: JSONValue] = ["event": .string(event.name)]
        switch event {
        case .authorized(let scope): object["scope"] = scope.json
        case .restored(let refreshed): object["refreshed"] = .bool(refreshed)
        case .refreshed(let expiry): object["access_token_expires_at"] = .string(EventText.timestamp(expiry))
        case .failed(let error): object["error"] = .string(error.errorDescription ?? "")
        case .reconsentNeeded, .expired: break
        }
        return .object(object)
    }

    static func json(_ account: OngoingAccessAccount) -> JSONValue {
        ["id": .string(account.id), "service": .string(account.service), "name": .string(account.name)]
    }

    static func json(_ file: OngoingAccessFileInfo) -> JSONValue {
        ["id": .string(file.id), "account_id": .string(file.accountID), "date": .string(day(file.date))]
    }

    /// `2026-03-01` .. `2026-06-30`, or `all data`.
    static func scope(_ scope: OngoingAccessScope) -> String {
        guard scope.from != nil || scope.to != nil else { return "all data" }
        return "\(scope.from.map(day) ?? "…") to \(scope.to.map(day) ?? "…")"
    }

    static func day(_ date: Date) -> String {
        String(EventText.timestamp(date).prefix(10))
    }
}
