// The name RegStateOngoingAccess's sources import (`import RegState`), standing for the engine compiled here against
// the Apple stubs.
@_exported import RegStateAppleTypeCheck
