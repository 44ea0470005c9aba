import Foundation
import RegState

extension FormEncoding {
    /// The query items of `url` (last value wins), as a server (the simulator) reads them.
    package static func queryItems(of url: URL) -> [String: String] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else {
            return [:]
        }
        return decode(query)
    }
}
