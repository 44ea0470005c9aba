#if REGSTATE_APPLE_TYPECHECK
import Foundation

// The one Foundation symbol RegState's Apple-only files use that Linux's Foundation lacks, declared as Apple
// documents it (FileManager.containerURL(forSecurityApplicationGroupIdentifier:)). Never run.

extension FileManager {
    /// The App Group's shared container (`nil` on iOS when the group is not in the entitlements).
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        fatalError("Apple type-check stub: never run")
    }
}
#endif
