import Foundation
import Logging
import PostgresNIO

/// A fresh PostgreSQL database for one test, on the server `UNDERSTUDY_TEST_POSTGRES` names
/// (`scripts/test-postgres.sh start` starts one and prints its URL; `.ci/run` does both).
///
/// ```swift
/// try await TestDatabase.with { url in
///     let store = try await StateStore(seed: seed, file: url, sharing: SharedStateDatabase.opener)
/// }
/// ```
struct TestDatabase {
    /// The server's URL, `nil` when none is configured (the suites that need one are then disabled).
    static let server = ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_POSTGRES"].flatMap(URL.init(string:))

    /// Runs `body` with the URL of a new, empty database, dropped afterwards.
    static func with<T>(_ body: (URL) async throws -> T) async throws -> T {
        guard let server, var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else {
            throw TestDatabaseError(description: "UNDERSTUDY_TEST_POSTGRES is not set")
        }
        let name = "understudy_test_\(UUID().uuidString.prefix(8).lowercased())"
        try await execute("CREATE DATABASE \(name)", on: server)
        components.path = "/\(name)"
        let url = components.url!
        do {
            let result = try await body(url)
            try await execute("DROP DATABASE \(name) WITH (FORCE)", on: server)
            return result
        } catch {
            try? await execute("DROP DATABASE \(name) WITH (FORCE)", on: server)
            throw error
        }
    }

    /// A connection to the database a URL names; the caller closes it.
    static func connect(_ url: URL) async throws -> PostgresConnection {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let configuration = PostgresConnection.Configuration(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432,
            username: components.user ?? "postgres", password: components.password,
            database: String(components.path.dropFirst()), tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    }

    static let logger = Logger(label: "understudy.tests.postgres")

    /// Runs one statement on the database a URL names.
    static func execute(_ sql: String, on url: URL) async throws {
        let connection = try await connect(url)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

struct TestDatabaseError: Error, CustomStringConvertible {
    let description: String
}
