import Foundation

extension RegStateService {
    /// Performs one effect and returns the events its result applied.
    func perform(_ effect: Effect) async -> [MachineEvent] {
        switch effect {
        case .emit(let event):
            broadcast(event)
            return []
        case .installNonNativeToken:
            do {
                try await tokens.installNonNativeToken(configuration.nonNativeAccessToken)
            } catch {
                logger.log(.error, "non-native token: \(error.localizedDescription)")
            }
            return await feed(.nonNativeTokenInstalled)
        case .inspectStoredTokens:
            return await feed(.storedTokensInspected(await tokens.inspect()))
        case .renew:
            let requested = staleTokenForRenewal
            staleTokenForRenewal = nil
            let stale: String? = if let requested { requested } else { await tokens.accessToken()?.token }
            return await renewCoalesced(replacing: stale).events
        case .startSocialAuthorization:
            return await startSocialAuthorization()
        case .sendPasswordlessCode(let email):
            return await sendPasswordlessCode(to: email)
        case .exchangeAuthorizationCode:
            return await exchangeAuthorizationCode()
        case .verifyPasswordlessCode(let email):
            return await verifyPasswordlessCode(for: email)
        case .confirmRegistration:
            return await confirmWithBackend()
        case .discardPendingAuthorization:
            pendingAuthorization = nil
            pendingCallback = nil
            pendingCode = nil
            return []
        case .clearProvisionalTokens:
            do {
                try await tokens.clearProvisional()
            } catch {
                // Left-over provisional tokens are never a session: the next launch removes them.
                logger.log(.warning, "clear provisional: \(error.localizedDescription)")
            }
            return []
        case .clearAllTokens:
            do {
                try await tokens.clearAll()
            } catch {
                logger.log(.error, "clear tokens: \(error.localizedDescription)")
                return []
            }
            return await feed(.credentialsCleared)
        case .clearEverything:
            do {
                _ = try await tokens.clearEverything()
            } catch {
                logger.log(.error, "clear state: \(error.localizedDescription)")
            }
            resetJournal()
            return await feed(.credentialsCleared)
        case .logout:
            return await performLogout()
        }
    }

    /// Renews through the single-flight ``RenewalService`` and applies the flight's result exactly once, however many
    /// callers waited on it.
    func renewCoalesced(replacing staleToken: String?) async -> (result: RenewalResult, events: [MachineEvent]) {
        let result = await renewal.renew(replacing: staleToken)
        guard let flight = result.flight, flight > lastAppliedFlight else { return (result, []) }
        lastAppliedFlight = flight
        switch result.outcome {
        case .success(let stored):
            return (result, await feed(.renewalSucceeded(stored)))
        case .failure(let failure):
            return (result, await feed(.renewalFailed(failure, stored: result.stored)))
        }
    }

    private func startSocialAuthorization() async -> [MachineEvent] {
        guard dependencies.platform.platform.isNative else {
            return await feed(.registrationFailed(.unsupported("social login needs a native platform")))
        }
        do {
            pendingAuthorization = try await provider.makeAuthorizationRequest()
            return await feed(.authorizationIssued)
        } catch {
            return await feed(.registrationFailed(Self.registrationFailure(error)))
        }
    }

    private func sendPasswordlessCode(to email: String) async -> [MachineEvent] {
        do {
            try await provider.startPasswordless(email: email)
            return await feed(.authorizationIssued)
        } catch {
            return await feed(.registrationFailed(Self.registrationFailure(error)))
        }
    }

    private func exchangeAuthorizationCode() async -> [MachineEvent] {
        guard let request = pendingAuthorization, let callback = pendingCallback else {
            return await feed(.registrationFailed(.noPendingLogin))
        }
        pendingCallback = nil
        do {
            let code = try await provider.authorizationCode(from: callback, for: request)
            // One callback per request: a replay of this redirect finds nothing pending.
            pendingAuthorization = nil
            let response = try await provider.exchangeCode(code, for: request)
            return await authenticate(with: response, nonce: request.nonce, type: .social)
        } catch {
            return await feed(.registrationFailed(Self.registrationFailure(error)))
        }
    }

    private func verifyPasswordlessCode(for email: String) async -> [MachineEvent] {
        guard let code = pendingCode else { return await feed(.registrationFailed(.noPendingLogin)) }
        pendingCode = nil
        do {
            let response = try await provider.verifyPasswordless(email: email, code: code)
            return await authenticate(with: response, nonce: nil, type: .passwordless)
        } catch {
            return await feed(.registrationFailed(Self.registrationFailure(error)))
        }
    }

    /// Validates the ID token, then stores the tokens as provisional: only a validated identity reaches G.
    private func authenticate(with response: TokenResponse, nonce: String?, type: RegistrationType) async -> [MachineEvent] {
        guard let idToken = response.idToken else {
            return await feed(.registrationFailed(.malformedResponse("the token response has no id_token")))
        }
        do {
            let verified = try await provider.validateIDToken(idToken, expectedNonce: nonce)
            guard case .authenticating = state else { return [] }  // the user moved on while we waited
            let stored = try await tokens.storeProvisional(response, registrationType: type, profile: verified.profile)
            return await feed(.authenticated(stored))
        } catch {
            return await feed(.registrationFailed(Self.registrationFailure(error)))
        }
    }

    /// Confirm (seed 002): register the installation and the profile with the backend, then confirm the tokens.
    private func confirmWithBackend() async -> [MachineEvent] {
        do {
            guard let backend else {
                return await feed(.registrationConfirmed(try await tokens.confirm()))
            }
            guard let idToken = await tokens.idToken(), let stored = await tokens.storedSession() else {
                return await feed(.registrationFailed(.noPendingLogin))
            }
            let platform = dependencies.platform.platform
            let installation = InstallationInfo(installationID: try await tokens.installationID(),
                                                platform: platform.type, formFactor: platform.formFactor)
            let grant = try await backend.securityToken(idToken: idToken, installation: installation)
            try await backend.updateProfile(stored.profile, registrationType: stored.registrationType,
                                            securityToken: grant.securityToken)
            let confirmed = try await tokens.confirm(securityToken: grant.securityToken, securityTokenLifetime: grant.expiresIn)
            return await feed(.registrationConfirmed(confirmed))
        } catch {
            return await feed(.registrationFailed(Self.registrationFailure(error)))
        }
    }

    /// Logout only while online (seed 000): the refresh token is revoked first; if the provider cannot be reached,
    /// nothing changes.
    private func performLogout() async -> [MachineEvent] {
        var result = LogoutResult.nothingToRevoke
        if let refreshToken = await tokens.refreshToken() {
            do {
                try await provider.revoke(token: refreshToken, hint: .refreshToken)
                result = .revoked
            } catch let error where error.isTransient {
                let issue: TransientIssue = if case .transport = error { .noInternet } else { .ssoUnspecifiedIssue }
                return await feed(.logoutRefused(issue))
            } catch {
                // A provider without revocation, or one that refuses: the local logout still happens, and says so.
                if case .unsupported = error { result = .revocationUnsupported } else {
                    result = .revocationRefused(error.errorDescription ?? "refused")
                }
                logger.log(.warning, "logout: the refresh token was not revoked (\(error.localizedDescription))")
            }
        }
        lastLogout = result
        if let backend, let securityToken = await tokens.securityToken() {
            try? await backend.deleteInstallation(securityToken: securityToken)
        }
        do {
            try await tokens.clearAll()
        } catch {
            logger.log(.error, "logout: \(error.localizedDescription)")
        }
        return await feed(.loggedOut)
    }

    /// Maps any error from the provider, the backend or the stores to the F reason a user can act on.
    static func registrationFailure(_ error: any Error) -> RegistrationFailure {
        switch error {
        case let error as OIDCError:
            switch error {
            case .transport(let transport): return .providerUnreachable(transport.errorDescription ?? "unreachable")
            case .server(let status): return .providerUnreachable("HTTP \(status)")
            case .notTheProvider(let status): return .providerUnreachable("HTTP \(status) from a web page, not the sign-in service")
            case .unexplainedRefusal: return .tokenRequestFailed(error: error.refusalReason, description: nil)
            case .unexpectedStatus(let status): return .malformedResponse("unexpected HTTP \(status)")
            case .oauth(let code, let description, _): return .tokenRequestFailed(error: code, description: description)
            case .malformedResponse(let reason): return .malformedResponse(reason)
            case .issuerMismatch(let expected, let found): return .discoveryFailed("issuer \(found) is not \(expected)")
            case .unsupported(let what): return .unsupported(what)
            case .authorizationError(let code, let description): return .authorizationDenied(error: code, description: description)
            case .stateMismatch: return .stateMismatch
            case .callbackIssuerMismatch: return .issuerMismatchInCallback
            case .malformedCallback(let reason): return .malformedCallback(reason)
            case .invalidIDToken(let reason): return .invalidIDToken(reason.errorDescription ?? "\(reason)")
            case .unauthorized: return .tokenRequestFailed(error: "unauthorized", description: nil)
            case .invalidEmail: return .invalidEmail
            case .wrongCode: return .wrongCode
            case .codeExpired: return .codeExpired
            case .codeReused: return .codeReused
            case .crypto(let crypto): return .storage(crypto.errorDescription ?? "crypto")
            }
        case let error as BackendError:
            switch error {
            case .tooManyRegisteredDevices: return .tooManyRegisteredDevices
            case .maxSecurityTokens: return .maxSecurityTokens
            default: return .backendFailed(error.errorDescription ?? "backend")
            }
        case let error as StoreError:
            return .storage(error.errorDescription ?? "store")
        case let error as TokenServiceError:
            return .storage(error.errorDescription ?? "tokens")
        case let error as CryptoError:
            return .storage(error.errorDescription ?? "no random bytes for the installation id")
        default:
            return .backendFailed(error.localizedDescription)
        }
    }
}
