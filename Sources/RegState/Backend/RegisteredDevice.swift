import Foundation

/// One installation registered with the backend for the user (`GET /v1/devices`).
public struct RegisteredDevice: Sendable, Equatable, Codable {
    /// The installation's identifier at the backend; pass it to ``RegStateService/removeDevice(id:)``.
    public var id: String
    /// The platform it registered from (`ios`, `android`, `linux`, …).
    public var platform: String
    /// Its form factor (`390x844`, …).
    public var formFactor: String
    /// When it registered, by the backend's clock.
    public var registeredAt: Date
    /// Whether it is this installation.
    public var isCurrent: Bool

    /// Creates a device from its parts.
    public init(id: String, platform: String, formFactor: String, registeredAt: Date, isCurrent: Bool) {
        self.id = id
        self.platform = platform
        self.formFactor = formFactor
        self.registeredAt = registeredAt
        self.isCurrent = isCurrent
    }
}

extension HTTPRegistrationBackend {
    /// `GET /v1/devices`.
    package func devices(credential: String) async throws(BackendError) -> [RegisteredDevice] {
        let response = try await send(.get, endpoint("/v1/devices"), bearer: credential)
        let object = try Self.object(of: response, "device list")
        guard let list = object["devices"]?.arrayValue else { throw .malformedResponse("the device list has no devices") }
        return list.compactMap { value -> RegisteredDevice? in
            guard let fields = value.objectValue, let id = fields["id"]?.stringValue else { return nil }
            // A missing or out-of-range time reads as 1970 (the list is informative; the ID is what counts).
            let registeredAt = fields["registered_at"]?.dateValue ?? Date(timeIntervalSince1970: 0)
            return RegisteredDevice(
                id: id, platform: fields["platform"]?.stringValue ?? "unknown",
                formFactor: fields["form_factor"]?.stringValue ?? "unknown",
                registeredAt: registeredAt, isCurrent: fields["current"] == .bool(true))
        }
    }

    /// `DELETE /v1/devices/<id>`, the ID as one path segment (``BackendError/invalidPathSegment(_:)`` for an empty
    /// ID, `.` or `..`: nothing is sent).
    package func removeDevice(id: String, credential: String) async throws(BackendError) {
        let url: URL
        do {
            url = try URLPathSegment.appending([id], to: endpoint("/v1/devices"))
        } catch {
            throw .invalidPathSegment(error)
        }
        try await send(.delete, url, bearer: credential)
    }
}
