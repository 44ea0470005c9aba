/// A held lock whose release runs once, however often ``release()`` is called: the lease of every store lock.
final class OnceLease: StoreLease {
    private let released = LockedFlag()
    private let onRelease: @Sendable () -> Void

    /// A lease that runs `onRelease` at its first release.
    init(onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    func release() {
        if released.take() { onRelease() }
    }
}
