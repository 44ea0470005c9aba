import Foundation
import Testing
import RegStateTesting
import RegState
import RegStateSimulator

/// OIDC Core §5.3.2: userinfo claims are used only when their `sub` is the ID token's.
@Suite("Userinfo: the sub must be the ID token's")
struct UserInfoSubjectTests {
    @Test("a userinfo answer naming another subject is a typed error and none of its claims come back")
    func anotherSubject() async throws {
        let world = try OIDCSimulatorEndToEndTests()
        let (_, tokens, verified) = try await world.signIn()
        await world.simulator.reconfigure { $0.userinfoSubject = "auth0|mallory" }
        await #expect(throws: UserInfoError.subjectMismatch) {
            _ = try await world.client.userInfo(accessToken: tokens.accessToken, subject: verified.profile.subject)
        }
        await world.simulator.reconfigure { $0.userinfoSubject = nil }
        let claims = try await world.client.userInfo(accessToken: tokens.accessToken, subject: verified.profile.subject)
        #expect(claims["sub"]?.stringValue == verified.profile.subject)
    }

    @Test("the subject is compared exactly: another case or a trailing space is another subject")
    func exactComparison() async throws {
        let world = try OIDCSimulatorEndToEndTests()
        let (_, tokens, verified) = try await world.signIn()
        for forged in [verified.profile.subject.uppercased(), verified.profile.subject + " ", ""] {
            await world.simulator.reconfigure { $0.userinfoSubject = forged }
            await #expect(throws: UserInfoError.self) {
                _ = try await world.client.userInfo(accessToken: tokens.accessToken, subject: verified.profile.subject)
            }
        }
    }

    @Test("the mismatch's message names no claim and no token")
    func messageIsClean() {
        let text = UserInfoError.subjectMismatch.localizedDescription
        #expect(text == "The sign-in service sent the profile of another user.")
    }
}
