import Foundation
import RegState

/// `devices [remove ID]`, and the walkthrough's offer at the device limit.
extension CommandRun {
    /// Lists the account's registered devices (this one marked) or removes one. An ID that cannot be one URL path
    /// segment (empty, `.`, `..`) is refused before the launch: nothing is sent, the reason is printed, exit 2.
    func devices() async -> Int32 {
        if let id = options.deviceID {
            do {
                _ = try URLPathSegment.encoded(id)
            } catch {
                let refusal = BackendError.invalidPathSegment(error)
                console.message("Devices: \(refusal.errorDescription ?? "the ID cannot be sent")")
                if options.json { console.jsonLine(["result": "devices", "error": .string(refusal.reasonCode)]) }
                return ExitCode.usage
            }
        }
        let state = await service.start()
        await drain()
        if let id = options.deviceID {
            do {
                let wasCurrent = (try? await service.registeredDevices())?.first { $0.id == id }?.isCurrent == true
                try await service.removeDevice(id: id)
                console.result("Removed device \(id)."
                    + (wasCurrent ? " It was this device: its registration at the backend has ended." : ""))
                if options.json { console.jsonLine(["result": "devices", "removed": .string(id)]) }
                return ExitCode.success
            } catch .backend(let error) {
                return devicesFailure(error, state: state, id: id)
            } catch {
                console.message("Device removal failed: \(error.errorDescription ?? "failed")")
                return ExitCode.failure
            }
        }
        do {
            let devices = try await service.registeredDevices()
            printDevices(devices)
            if options.json {
                console.jsonLine(["result": "devices", "devices": .array(devices.map(Self.json))])
            }
            return ExitCode.success
        } catch .backend(let error) {
            return devicesFailure(error, state: state, id: nil)
        } catch {
            console.message("The device list failed: \(error.errorDescription ?? "failed")")
            return ExitCode.failure
        }
    }

    private func printDevices(_ devices: [RegisteredDevice]) {
        guard !devices.isEmpty else {
            console.result("No device is registered to this account.")
            return
        }
        console.result("Registered devices (\(devices.count)):")
        for device in devices { console.result("  " + Self.line(device)) }
    }

    /// `ID  linux 390x844, registered 2026-11-24T12:00:00Z (this device)`.
    static func line(_ device: RegisteredDevice) -> String {
        "\(device.id)  \(device.platform) \(device.formFactor), registered "
            + EventText.timestamp(device.registeredAt) + (device.isCurrent ? " (this device)" : "")
    }

    static func json(_ device: RegisteredDevice) -> JSONValue {
        ["id": .string(device.id), "platform": .string(device.platform), "formFactor": .string(device.formFactor),
         "registeredAt": .string(EventText.timestamp(device.registeredAt)), "current": .bool(device.isCurrent)]
    }

    /// Says why the device list failed; exit 3 when nothing here can authenticate (no session), else 1.
    private func devicesFailure(_ error: BackendError, state: RegState, id: String?) -> Int32 {
        let noSession: Bool = if case .unauthorized = error, case .active = state { false } else { error == .unauthorized }
        let sentence = switch error {
        case .unauthorized where noSession:
            "No session is active (\(EventText.human(state))): the device list needs this device's registration."
                + " \(registerHint)"
        case .unexpectedStatus(404, "unknown_device"):
            "No device with the ID \(id ?? "?") is registered to this account. To list them, run:"
                + " \(options.typed("devices"))"
        case .unexpectedStatus(404, "devices_unsupported"):
            "This backend has no device list (or no backend is configured)."
        default:
            error.errorDescription ?? "The backend refused."
        }
        console.message("Devices: \(sentence)")
        if options.json { console.jsonLine(["result": "devices", "error": .string(error.reasonCode)]) }
        return noSession ? ExitCode.registrationRequired : ExitCode.failure
    }

    /// The walkthrough at `TOO_MANY_REGISTERED_DEVICES`: lists the account's devices and offers to remove one; after
    /// a removal the user signs in again and confirms (the refused registration's provisional tokens are gone, so
    /// the confirmation is retried with a new sign-in).
    func deviceLimitMenu() async -> Step {
        let devices: [RegisteredDevice]
        do {
            devices = try await service.registeredDevices()
        } catch {
            console.message("The device list could not be read: \(error.errorDescription ?? "refused").")
            return .next
        }
        guard !devices.isEmpty else { return .next }
        var menu = "Remove a device to make room for this one:"
        for (index, device) in devices.enumerated() { menu += "\n  \(index + 1)  " + Self.line(device) }
        menu += "\n  q  Keep them all (stop here)"
        console.message(menu)
        let choices = devices.indices.map { String($0 + 1) } + ["q"]
        guard let answer = await choose(from: choices) else { return .exit(endOfInput()) }
        guard let index = Int(answer), devices.indices.contains(index - 1) else { return await quit() }
        let device = devices[index - 1]
        do {
            try await service.removeDevice(id: device.id)
        } catch {
            console.message("The device was not removed: \(error.errorDescription ?? "refused").")
            return .next
        }
        console.message("Removed \(device.platform) \(device.formFactor). Sign in again to confirm this device.")
        try? await service.retryRegistration()
        return .next
    }
}
