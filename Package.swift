// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Understudy",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "UnderstudyCore", targets: ["UnderstudyCore"]),
        .library(name: "UnderstudySpecs", targets: ["UnderstudySpecs"]),
        .executable(name: "understudy", targets: ["understudy"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .target(name: "UnderstudyCore", swiftSettings: swiftSettings),
        .target(name: "UnderstudySpecs", dependencies: ["UnderstudyCore"], swiftSettings: swiftSettings),
        .target(
            name: "UnderstudyCLI",
            dependencies: [
                "UnderstudyCore", "UnderstudySpecs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "understudy",
            dependencies: ["UnderstudyCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "understudy-benchmarks",
            dependencies: ["UnderstudyCore", "UnderstudySpecs"],
            path: "Benchmarks/understudy-benchmarks",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "UnderstudyCoreTests", dependencies: ["UnderstudyCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "UnderstudySpecsTests",
            dependencies: ["UnderstudyCore", "UnderstudySpecs"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyCLITests",
            dependencies: ["UnderstudyCLI", "UnderstudyCore", "UnderstudySpecs"],
            swiftSettings: swiftSettings
        ),
    ]
)
