@testable import RegState

extension RegStateService {
    /// How many authorized requests wait for a renewed security token now (host mode: for the host's answer).
    var heldRequestCount: Int { flights.waiting(.securityToken) }
}
