import Foundation

/// The fuzz targets, one per parser an attacker (or a damaged disk) can feed.
///
/// Built two ways: as a plain executable (`swift build`) that replays files through a target — the regression runner
/// the package tests use — and, with `-D FUZZING -sanitize=fuzzer,address`, as a libFuzzer binary whose target is
/// chosen by the `REGSTATE_FUZZ_TARGET` environment variable (`Tests/Fuzz/run.sh` does both).
enum FuzzTarget: String, CaseIterable {
    /// The compact JWT parser and the ID token validator, with raw tokens and with correctly signed arbitrary JSON.
    case jwt
    /// JWKS documents and the RSA keys in them.
    case jwks
    /// Token, discovery and userinfo answers, through ``OIDCClient``.
    case responses
    /// Authorization callback URLs.
    case callback
    /// Journal bytes (raw and framed lines), replayed by a service.
    case journal
    /// The stored credentials record.
    case store
    /// DPoP proofs as the simulator's verifier sees them, and `DPoP-Nonce` headers.
    case dpop
    /// Ongoing-access JWS answers: the compact parser and the verifier.
    case jws
    /// The pending-login record in the secure store.
    case pendinglogin
    /// The ID token a host app pushes (host mode).
    case hosttoken
    /// Discovery documents with advertised algorithms and endpoints.
    case discovery
    /// Every record's times through to the text `status`, `events` and `ongoing-access` print.
    case printed

    /// Runs the target on one input; must never crash, hang or grow without bound.
    func run(_ data: Data) {
        switch self {
        case .jwt: FuzzJWT.run(data)
        case .jwks: FuzzJWKS.run(data)
        case .responses: FuzzResponses.run(data)
        case .callback: FuzzCallback.run(data)
        case .journal: FuzzJournal.run(data)
        case .store: FuzzStore.run(data)
        case .dpop: FuzzDPoP.run(data)
        case .jws: FuzzJWS.run(data)
        case .pendinglogin: FuzzPendingLogin.run(data)
        case .hosttoken: FuzzHostToken.run(data)
        case .discovery: FuzzDiscovery.run(data)
        case .printed: FuzzPrinted.run(data)
        }
    }

    /// The target named by `REGSTATE_FUZZ_TARGET`.
    static var fromEnvironment: FuzzTarget? {
        ProcessInfo.processInfo.environment["REGSTATE_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))
    }
}

#if FUZZING
/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let target = FuzzTarget.fromEnvironment else {
        fatalError("set REGSTATE_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue))")
    }
    target.run(Data(bytes: bytes, count: count))
    return 0
}

/// libFuzzer's driver (in the fuzzer runtime `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's entry point under `<module>_main` and aliases `main` to it; here that entry hands
/// control to libFuzzer's driver, which would otherwise have been `main`.
@_cdecl("RegStateFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in fuzzOneInput(bytes, size) }
}
#else
/// Replays inputs: `RegStateFuzz <target> <file or directory>...`; prints how many inputs ran.
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: RegStateFuzz <\(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|"))> <path>...")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(data)
                count += 1
            }
        }
        print("\(target.rawValue): \(count) input(s) replayed")
    }

    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
#endif
