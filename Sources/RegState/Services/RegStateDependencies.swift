import Foundation

/// Every outside effect the service uses, injected so that tests, the simulator and apps each supply their own.
public struct RegStateDependencies: Sendable {
    /// Where tokens live.
    public var store: any SecureStore
    /// Where events are recorded.
    public var journal: any EventJournal
    /// How HTTP requests are sent (URLSession, or the simulator's in-process transport).
    public var transport: any HTTPTransport
    /// The current time.
    public var clock: any RegStateClock
    /// Hashes, random bytes and signatures.
    public var crypto: any CryptoProvider
    /// Native or not, platform type, form factor.
    public var platform: any PlatformService
    /// Where diagnostics go.
    public var logger: any RegStateLogger
    /// The registration backend; `nil` builds `HTTPRegistrationBackend` from the configuration's backend URL.
    public var backend: (any RegistrationBackend)?

    /// Creates the dependencies; every one but the store and the journal has a real default.
    public init(store: any SecureStore, journal: any EventJournal, transport: any HTTPTransport = URLSessionTransport(),
                clock: any RegStateClock = SystemClock(), crypto: any CryptoProvider = SystemCrypto(),
                platform: any PlatformService = SystemPlatformService(), logger: any RegStateLogger = SilentLogger(),
                backend: (any RegistrationBackend)? = nil) {
        self.store = store
        self.journal = journal
        self.transport = transport
        self.clock = clock
        self.crypto = crypto
        self.platform = platform
        self.logger = logger
        self.backend = backend
    }

    /// Dependencies on disk in `directory`: a ``FileSecureStore`` in `directory/secure` and a ``FileJournal`` at
    /// `directory/journal.log`, with the other defaults.
    ///
    /// - Throws: ``StoreError`` or ``JournalError`` when the directory cannot be used.
    public static func onDisk(at directory: URL, transport: any HTTPTransport = URLSessionTransport()) throws -> RegStateDependencies {
        try onDisk(atPath: directory.path, transport: transport)
    }

    /// ``onDisk(at:transport:)`` for the directory at `path`, without `URL` when the path is plain (the command-line
    /// tool's store).
    package static func onDisk(atPath directory: String, transport: any HTTPTransport) throws -> RegStateDependencies {
        let files = PosixFileSystem()
        let store = try FileSecureStore(directoryPath: PlainPath.appending("secure", to: directory), fileSystem: files)
        let journal = try FileJournal(path: PlainPath.appending("journal.log", to: directory), fileSystem: files)
        return RegStateDependencies(store: store, journal: journal, transport: transport)
    }

    /// The platform's default store in one line: on Apple platforms a `KeychainSecureStore` for `keychainService`
    /// (the app's own access group) paired with a ``FileStoreLock`` at `directory/.lock`, and a ``FileJournal`` at
    /// `directory/journal.log`; elsewhere ``onDisk(at:transport:)`` (a ``FileSecureStore`` in `directory/secure`).
    /// An app whose extensions share its session uses `sharedSession(appGroup:keychainAccessGroup:service:)`.
    ///
    /// - Throws: ``StoreError`` or ``JournalError`` when the directory cannot be used.
    public static func standard(at directory: URL, keychainService: String,
                                transport: any HTTPTransport = URLSessionTransport()) throws -> RegStateDependencies {
        #if canImport(Security) || REGSTATE_APPLE_TYPECHECK
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.unusableLocation(path: directory.path, reason: error.localizedDescription)
        }
        let journal = try FileJournal(url: directory.appendingPathComponent("journal.log"))
        let store = LockedSecureStore(items: KeychainSecureStore(service: keychainService),
                                      lock: FileStoreLock(url: directory.appendingPathComponent(".lock")))
        return RegStateDependencies(store: store, journal: journal, transport: transport)
        #else
        _ = keychainService
        return try onDisk(at: directory, transport: transport)
        #endif
    }
}
