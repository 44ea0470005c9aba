import Testing
@testable import regstate

/// A device ID is random base64url, so one in 64 starts with `-`: the word after `remove` is the ID whatever it
/// starts with, never an option (the removal of such a device once failed as "unknown option").
@Suite("CLI: the ID after devices remove")
struct DeviceIDArgumentTests {
    @Test("an ID that starts with - or -- is the ID", arguments: ["-uTLIH_Mb2eeHW28V2mtaw", "--x9", "plainID"])
    func dashedID(id: String) throws {
        let options = try CLIOptions.parse(["devices", "remove", id, "--json"], environment: [:])
        #expect(options.deviceID == id)
        #expect(options.removesDevice)
        #expect(options.json)
    }

    @Test("options before remove still parse, and remove twice is refused")
    func optionsAround() throws {
        let options = try CLIOptions.parse(["--json", "devices", "remove", "abc"], environment: [:])
        #expect(options.deviceID == "abc")
        #expect(throws: UsageError("unexpected argument 'extra'")) {
            try CLIOptions.parse(["devices", "remove", "abc", "extra"], environment: [:])
        }
    }
}
