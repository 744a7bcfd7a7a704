// swift-tools-version: 6.1
import PackageDescription

// An app's API client and its tests, as an iOS app's project would hold them: the client knows nothing of
// Understudy; its tests reach the five APIs' mocks in process through UnderstudyTesting. CI runs them (`.ci/run`).
let package = Package(
    name: "UnderstudyExamples",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // In an app: .package(url: "https://github.com/<owner>/understudy", from: "…")
        .package(name: "Understudy", path: "..")
    ],
    targets: [
        .target(name: "AppClient"),
        .testTarget(
            name: "AppClientTests",
            dependencies: [
                "AppClient",
                .product(name: "UnderstudyTesting", package: "Understudy"),
                .product(name: "UnderstudySpecs", package: "Understudy"),
            ]),
    ]
)
