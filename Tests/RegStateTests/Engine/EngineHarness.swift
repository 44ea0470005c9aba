import Foundation
import Testing
@testable import RegState
import RegStateSimulator
import RegStateTesting

/// One simulated world (provider + backend on a manual clock) and the device-side storage that survives relaunches:
/// the ``SimulatedDevice`` the `RegStateTesting` product ships.
typealias EngineHarness = SimulatedDevice

extension SimulatedDevice {
    /// The stored refresh token, read the way the engine reads it.
    func storedRefreshToken() async -> String? {
        await TokenService(store: store, clock: clock).snapshot()?.refreshToken
    }
}
