/// A held lock whose release runs once, however often ``release()`` is called: the lease of every store lock.
final class OnceLease: StoreLease {
    /// What the release does, until it has run.
    private let onRelease: LockedValue<(@Sendable () -> Void)?>

    /// A lease that runs `onRelease` at its first release.
    init(onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = LockedValue(onRelease)
    }

    func release() {
        onRelease.withLock { $0.take() }?()
    }
}
