// swift-tools-version: 6.0
import PackageDescription

/// One settings list for every target: Swift 6 language mode (complete strict concurrency) and explicit `any`.
let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "RegState",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RegState", targets: ["RegState"]),
        // Ongoing access in the digi.me style (consent once, restore without the user): a second engine beside the
        // registration engine, on RegState's primitives. An app that does not use it does not link it.
        .library(name: "RegStateOngoingAccess", targets: ["RegStateOngoingAccess"]),
        // Catches a sign-in redirect on http://127.0.0.1:PORT (RFC 8252 §7.3), for desktop apps and command-line tools.
        .library(name: "RegStateLoopback", targets: ["RegStateLoopback"]),
        // Shows the sign-in in the system's authentication session (ASWebAuthenticationSession), for iOS and macOS apps.
        .library(name: "RegStateWebAuthentication", targets: ["RegStateWebAuthentication"]),
        // Makes an app's own URLSession follow the request policy (a URLProtocol over AuthorizedTransport).
        .library(name: "RegStateURLSession", targets: ["RegStateURLSession"]),
        .library(name: "RegStateSimulator", targets: ["RegStateSimulator"]),
        // Test doubles for apps: in-memory store, manual clock, recording logger, a device on the simulator.
        .library(name: "RegStateTesting", targets: ["RegStateTesting"]),
        .executable(name: "regstate", targets: ["regstate"]),
        // Runs seeded lives of the real engine in a simulated world: regstate-sim --seeds 1..100
        .executable(name: "regstate-sim", targets: ["regstate-sim"]),
    ],
    targets: [
        // The system's OpenSSL libcrypto (Debian: libssl-dev), linked on Linux only; Apple platforms use CryptoKit/Security.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "RegState",
            dependencies: [.target(name: "CLibCrypto", condition: .when(platforms: [.linux]))],
            swiftSettings: settings
        ),
        .target(name: "RegStateOngoingAccess",
                dependencies: ["RegState", .target(name: "CLibCrypto", condition: .when(platforms: [.linux]))],
                swiftSettings: settings),
        .target(name: "RegStateLoopback", dependencies: ["RegState"], swiftSettings: settings),
        // No dependency: it hands the redirect URL back; the app gives it to RegStateService.
        .target(name: "RegStateWebAuthentication", swiftSettings: settings),
        .target(name: "RegStateURLSession", dependencies: ["RegState"], swiftSettings: settings),
        .target(name: "RegStateSimulator", dependencies: ["RegState", "RegStateOngoingAccess"], swiftSettings: settings),
        .target(name: "RegStateTesting", dependencies: ["RegState", "RegStateOngoingAccess", "RegStateSimulator"],
                swiftSettings: settings),
        .executableTarget(name: "regstate", dependencies: ["RegState", "RegStateOngoingAccess", "RegStateLoopback",
                                                          "RegStateSimulator", "RegStateTesting"],
                          swiftSettings: settings),
        // Deterministic simulation testing: a seeded world (scheduling, time, network, disk, crashes, users) around
        // the real RegStateService, and the invariants checked in every run.
        .target(name: "RegStateSimulation",
                dependencies: ["RegState", "RegStateOngoingAccess", "RegStateSimulator", "RegStateTesting",
                               .target(name: "CLibCrypto", condition: .when(platforms: [.linux]))],
                swiftSettings: settings),
        .executableTarget(name: "regstate-sim", dependencies: ["RegStateSimulation"], swiftSettings: settings),
        // Prints figures for the hot paths; run it in release: swift run -c release RegStateBenchmarks
        .executableTarget(name: "RegStateBenchmarks",
                         dependencies: ["RegState", "RegStateOngoingAccess", "RegStateSimulator", "RegStateTesting",
                                        .target(name: "CLibCrypto", condition: .when(platforms: [.linux]))],
                         swiftSettings: settings),
        // A child process for the crash tests: it rewrites a store and a journal until it is killed.
        .executableTarget(name: "RegStateCrashProbe", dependencies: ["RegState"], swiftSettings: settings),
        // The fuzz targets (Tests/Fuzz/run.sh builds them with -sanitize=fuzzer,address and runs them); built plainly,
        // it replays inputs through a target, which the tests do with the corpus.
        .executableTarget(name: "RegStateFuzz", dependencies: ["RegState", "RegStateOngoingAccess", "RegStateSimulator", "RegStateTesting"], path: "Tests/Fuzz/RegStateFuzz",
                          swiftSettings: settings),
        // What the test targets that run child processes share: finding the package root and the built executables.
        .target(name: "RegStateTestSupport", dependencies: ["RegState", "RegStateSimulator"], path: "Tests/RegStateTestSupport", swiftSettings: settings),
        .testTarget(name: "RegStateTests", dependencies: ["RegState", "RegStateOngoingAccess", "RegStateLoopback", "RegStateWebAuthentication", "RegStateURLSession", "RegStateSimulator", "RegStateTesting", "RegStateCrashProbe",
                                                          "RegStateFuzz", "RegStateTestSupport"], swiftSettings: settings),
        .testTarget(name: "RegStateSimulatorTests", dependencies: ["RegState", "RegStateOngoingAccess", "RegStateSimulator", "RegStateTesting", "RegStateTestSupport"], swiftSettings: settings),
        .testTarget(name: "RegStateSimulationTests", dependencies: ["RegStateSimulation", "regstate-sim", "RegStateTestSupport"],
                    swiftSettings: settings),
        .testTarget(name: "RegStateCLITests", dependencies: ["regstate", "RegStateLoopback", "RegStateTesting", "RegStateTestSupport"],
                    swiftSettings: settings),
        .testTarget(name: "RegStateInteropTests", dependencies: ["RegState", "RegStateOngoingAccess", "RegStateTesting", "regstate", "RegStateTestSupport"],
                    swiftSettings: settings),
    ]
)
