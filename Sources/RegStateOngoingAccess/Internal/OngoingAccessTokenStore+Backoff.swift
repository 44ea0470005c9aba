import Foundation
import RegState

/// Ongoing access's transient backoff in the store (``OngoingAccessBackoff``), shared by every process and launch.
extension OngoingAccessTokenStore {
    /// The stored hold, or `nil` when there is none or it cannot be read.
    func backoff() -> RejectionHold? {
        guard let data = try? store.data(forKey: TokenService.ongoingAccessBackoffKey),
              let record = try? RecordedTime.decoder().decode(OngoingAccessBackoff.self, from: data)
        else { return nil }
        return record.hold
    }

    /// Stores `hold` (`nil` removes it).
    func setBackoff(_ hold: RejectionHold?) throws(StoreError) {
        guard let hold else { return try store.removeValue(forKey: TokenService.ongoingAccessBackoffKey) }
        guard let data = try? RecordedTime.encoder().encode(OngoingAccessBackoff(hold)) else {
            throw .writeFailed(key: TokenService.ongoingAccessBackoffKey, reason: "the backoff cannot be encoded")
        }
        try store.set(data, forKey: TokenService.ongoingAccessBackoffKey)
    }
}
