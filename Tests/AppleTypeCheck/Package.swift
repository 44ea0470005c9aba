// swift-tools-version: 6.0
import PackageDescription

// Exists only to type-check RegState's Apple-only code on Linux; never shipped, not
// part of the RegState package (this is a package of its own, so `swift build` of RegState never builds it).
//
// The one target compiles RegState's own sources, unchanged (Sources/RegStateAppleTypeCheck/RegState is a symlink
// to ../../../../Sources/RegState), with REGSTATE_APPLE_TYPECHECK defined and without CLibCrypto, next to
// hand-written stubs of exactly the Apple symbols those files use (Stubs/). Every Apple-only file is guarded by
// `#if canImport(Security) || REGSTATE_APPLE_TYPECHECK` (or its CryptoKit form) and imports the framework only
// under `#if canImport(...)`, so here the stubs, in the same module, stand in for the frameworks.
//
// What it catches: errors in RegState's code (a typo, a wrong type, a missing case, a protocol requirement the Apple
// branch does not meet). What it cannot catch: a change in Apple's APIs or their behaviour — the stubs are written
// from Apple's documentation and may be looser than the real declarations. Behaviour needs a Mac: see
// Sources/RegState/RegState.docc/SharingASessionWithAppExtensions.md.
//
// Run: swift build --package-path Tests/AppleTypeCheck -Xswiftc -warnings-as-errors
let package = Package(
    name: "RegStateAppleTypeCheck",
    // A library product only so that Scripts/check-snippets.sh can compile the documents' Apple-only code against it.
    products: [
        .library(name: "RegStateAppleTypeCheck", targets: ["RegStateAppleTypeCheck", "RegStateOngoingAccess"]),
        .library(name: "RegStateWebAuthentication", targets: ["RegStateWebAuthentication"]),
    ],
    targets: [
        .target(
            name: "RegStateAppleTypeCheck",
            path: "Sources/RegStateAppleTypeCheck",
            exclude: ["RegState/RegState.docc"],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .define("REGSTATE_APPLE_TYPECHECK", .when(platforms: [.linux])),
            ]
        ),
        // RegStateOngoingAccess's sources, unchanged (a symlink to ../../../../Sources/RegStateOngoingAccess), for its
        // Apple RSA signing (SystemCrypto+AppleRSASigning.swift). They `import RegState`: the target `RegState` is one
        // file that re-exports the engine compiled above. In the product above, so the snippets' build builds it.
        .target(name: "RegState", dependencies: ["RegStateAppleTypeCheck"], path: "Sources/RegState"),
        .target(
            name: "RegStateOngoingAccess",
            dependencies: ["RegState"],
            path: "Sources/RegStateOngoingAccess",
            exclude: ["RegStateOngoingAccess/RegStateOngoingAccess.docc"],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .define("REGSTATE_APPLE_TYPECHECK", .when(platforms: [.linux])),
            ]
        ),
        // RegStateWebAuthentication's sources, unchanged (a symlink to ../../../../Sources/RegStateWebAuthentication),
        // next to stubs of the AuthenticationServices symbols they use (Stubs/AuthenticationServices.swift). Named as
        // the product is, so the documents' Apple-only snippets import it by its real name.
        .target(
            name: "RegStateWebAuthentication",
            path: "Sources/RegStateWebAuthentication",
            exclude: ["RegStateWebAuthentication/RegStateWebAuthentication.docc"],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .define("REGSTATE_APPLE_TYPECHECK", .when(platforms: [.linux])),
            ]
        ),
    ]
)
