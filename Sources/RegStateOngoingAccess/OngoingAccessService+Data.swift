import Foundation
import RegState

/// Reading the data an open session allows: accounts, files, one file.
extension OngoingAccessService {
    /// The accounts the session may read from.
    ///
    /// - Throws: ``OngoingAccessError/notAuthorized`` before authorization, ``OngoingAccessError/accessRejected``
    ///   when the provider refuses the access token, or another ``OngoingAccessError``.
    public func accounts() async throws(OngoingAccessError) -> [OngoingAccessAccount] {
        let value = try await read(["accounts"])
        guard let entries = value["accounts"]?.arrayValue else { throw .malformedAnswer("no \"accounts\" list") }
        return try entries.map { entry throws(OngoingAccessError) in
            guard let id = entry["id"]?.stringValue, let service = entry["service"]?.stringValue,
                  let name = entry["name"]?.stringValue
            else { throw .malformedAnswer("an account without id, service or name") }
            return OngoingAccessAccount(id: id, service: service, name: name)
        }
    }

    /// The files the session's scope covers; throws as ``accounts()``.
    public func files() async throws(OngoingAccessError) -> [OngoingAccessFileInfo] {
        let value = try await read(["files"])
        guard let entries = value["files"]?.arrayValue else { throw .malformedAnswer("no \"files\" list") }
        return try entries.map(Self.fileInfo)
    }

    /// One file with its content.
    ///
    /// - Throws: ``OngoingAccessError/invalidPathSegment(_:)`` for an ID that cannot be one URL path segment (empty,
    ///   `.`, `..`; any other ID is sent as exactly one segment), before anything is sent;
    ///   ``OngoingAccessError/providerRefused(status:error:)`` with 404 for a file outside the scope, or as
    ///   ``accounts()``.
    public func file(id: String) async throws(OngoingAccessError) -> OngoingAccessFile {
        do {
            _ = try URLPathSegment.encoded(id)
        } catch {
            throw .invalidPathSegment(error)
        }
        let value = try await read(["files", id])
        guard let content = value["content"] else { throw .malformedAnswer("no \"content\"") }
        return OngoingAccessFile(info: try Self.fileInfo(value), content: content)
    }

    private static func fileInfo(_ entry: JSONValue) throws(OngoingAccessError) -> OngoingAccessFileInfo {
        guard let id = entry["id"]?.stringValue, let account = entry["account_id"]?.stringValue,
              let date = entry["date"]?.dateValue
        else { throw .malformedAnswer("a file without id, account_id or date") }
        return OngoingAccessFileInfo(id: id, accountID: account, date: date)
    }

    private func read(_ path: [String]) async throws(OngoingAccessError) -> JSONValue {
        guard case .authorized(let session) = state, let token = currentToken else { throw .notAuthorized }
        let seen = try admitProviderCall(userAction: false)
        do {
            let value = try await client.data(path, session: session, token: token)
            noteProviderAnswered(after: seen)
            return value
        } catch .providerRefused(status: 401, _) {
            noteProviderAnswered(after: seen)
            throw .accessRejected
        } catch {
            noteProviderFailure(error)
            throw error
        }
    }
}
