// swift-tools-version: 6.0
import PackageDescription

// Consumer code that CI builds against the root package by path, so every example uses only RegState's public API.
// Build: swift build --package-path Examples
let package = Package(
    name: "RegStateExamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "RegState", path: "..")],
    targets: [
        .target(
            name: "RegStateExamples",
            dependencies: [.product(name: "RegState", package: "RegState"),
                           .product(name: "RegStateOngoingAccess", package: "RegState"),
                           .product(name: "RegStateWebAuthentication", package: "RegState"),
                           .product(name: "RegStateURLSession", package: "RegState")],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
