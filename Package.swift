// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Understudy",
    // UnderstudyTesting runs in an app's test target: iOS 17 and macOS 14, as Hummingbird 2 itself.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "UnderstudyCore", targets: ["UnderstudyCore"]),
        .library(name: "UnderstudySpecs", targets: ["UnderstudySpecs"]),
        .library(name: "UnderstudyPostgREST", targets: ["UnderstudyPostgREST"]),
        .library(name: "UnderstudyMock", targets: ["UnderstudyMock"]),
        .library(name: "UnderstudyMockServer", targets: ["UnderstudyMockServer"]),
        .library(name: "UnderstudyTesting", targets: ["UnderstudyTesting"]),
        .library(name: "UnderstudyCheck", targets: ["UnderstudyCheck"]),
        .library(name: "UnderstudyOpenAPI", targets: ["UnderstudyOpenAPI"]),
        .executable(name: "understudy", targets: ["understudy"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already in the graph through AsyncHTTPClient; listed for its bounded gzip/deflate inflater.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.26.0"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // `mock --state postgres://…`: replicas sharing one state.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .target(name: "UnderstudyCore", swiftSettings: swiftSettings),
        // The system's SQLite (libsqlite3-dev), for `--state`: a tiny module and no package to build.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "UnderstudySpecs", dependencies: ["UnderstudyCore"], swiftSettings: swiftSettings),
        // PostgREST's query grammar, row security and errors over the tables a catalog declares (any Supabase schema).
        .target(name: "UnderstudyPostgREST", dependencies: ["UnderstudyCore"], swiftSettings: swiftSettings),
        // The mock engine, the five APIs' behaviours and their state: no server, no database driver, so an app's
        // test target (UnderstudyTesting) links it on iOS.
        .target(
            name: "UnderstudyMock",
            dependencies: [
                "CSQLite", "UnderstudyCore", "UnderstudyPostgREST", "UnderstudySpecs",
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // The engine on a real socket (Hummingbird 2), and state shared through PostgreSQL.
        .target(
            name: "UnderstudyMockServer",
            dependencies: [
                "UnderstudyCore", "UnderstudyMock",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "CSystemMemory"),
        .target(
            name: "UnderstudyCheck",
            dependencies: [
                "CSystemMemory", "UnderstudyCore", "UnderstudySpecs",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "UnderstudyTesting",
            dependencies: ["UnderstudyCore", "UnderstudySpecs", "UnderstudyMock"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "UnderstudyOpenAPI",
            dependencies: [
                "UnderstudyCore",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "UnderstudyCLI",
            dependencies: [
                "UnderstudyCore", "UnderstudySpecs", "UnderstudyMock", "UnderstudyMockServer", "UnderstudyCheck",
                "UnderstudyOpenAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "understudy",
            dependencies: [
                "UnderstudyCheck", "UnderstudyCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "understudy-benchmarks",
            dependencies: ["UnderstudyCore", "UnderstudySpecs"],
            path: "Benchmarks/understudy-benchmarks",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "check-benchmark",
            dependencies: [
                "UnderstudyCheck", "UnderstudyCore", "UnderstudySpecs", "UnderstudyMock", "UnderstudyMockServer",
            ],
            path: "Benchmarks/check-benchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "minimal-server",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/minimal-server",
            swiftSettings: swiftSettings
        ),
        // What the test targets share: the binary's launcher and loopback requests.
        .target(
            name: "UnderstudyTestSupport", dependencies: ["UnderstudyCore"], path: "Tests/Support",
            swiftSettings: swiftSettings),
        .testTarget(name: "UnderstudyCoreTests", dependencies: ["UnderstudyCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "UnderstudySpecsTests",
            dependencies: ["UnderstudyCore", "UnderstudySpecs"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyMockTests",
            dependencies: [
                "UnderstudyCore", "UnderstudySpecs", "UnderstudyMock", "UnderstudyMockServer", "UnderstudyPostgREST",
                "UnderstudyTesting", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyCheckTests",
            dependencies: [
                "UnderstudyCheck", "UnderstudyCore", "UnderstudySpecs", "UnderstudyMock", "UnderstudyMockServer",
                "UnderstudyOpenAPI", "UnderstudyPostgREST", "UnderstudyTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyOpenAPITests",
            dependencies: [
                "UnderstudyCore", "UnderstudySpecs", "UnderstudyMock", "UnderstudyMockServer", "UnderstudyOpenAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnderstudyCLITests",
            dependencies: [
                "UnderstudyCLI", "UnderstudyCheck", "UnderstudyCore", "UnderstudySpecs", "UnderstudyMock",
                "UnderstudyMockServer", "UnderstudyTesting", "UnderstudyTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
