import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudySpecs

extension Date {
    /// 2025-11-15T17:46:40Z as seconds since 2001: the tests' clock starts there, so seeds and answers are reproducible.
    static let videGreniersStart = Date(timeIntervalSinceReferenceDate: 785_000_000)
}

extension MockClock {
    /// The time in seconds since 2001, as VideGreniers' records keep it.
    var seconds: Double { now.timeIntervalSinceReferenceDate }
}

/// An in-process VideGreniers mock with handy requests.
struct VideGreniersHarness {
    /// An instant (seconds since 2001) as the API writes it: `2025-11-15T17:46:40Z`.
    static func date(_ seconds: Double) -> JSONValue {
        .string(Date(timeIntervalSinceReferenceDate: seconds).formatted(Date.ISO8601FormatStyle()))
    }

    /// The instant of a date the API wrote, in seconds since 2001.
    static func seconds(_ value: JSONValue?) -> Double? {
        value?.stringValue.flatMap { try? Date.ISO8601FormatStyle().parse($0) }?.timeIntervalSinceReferenceDate
    }

    let engine: MockEngine
    let clock: MockClock
    let spec = VideGreniers.spec

    static func make(
        clock: MockClock = MockClock(start: .videGreniersStart), stateFile: URL? = nil, seed: UInt64 = 1,
        maximumBodyBytes: Int = 1 << 20
    ) async throws -> VideGreniersHarness {
        let configuration = MockConfiguration(
            seed: seed, stateFile: stateFile, maximumBodyBytes: maximumBodyBytes, now: { clock.now })
        let behaviour = try await VideGreniersMock(configuration: configuration)
        return VideGreniersHarness(engine: MockEngine(behaviour: behaviour, configuration: configuration), clock: clock)
    }

    func send(
        _ method: String, _ target: String, json: JSONValue? = nil, bytes: [UInt8]? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async -> (status: Int, json: JSONValue?, response: MockResponse) {
        await engine.send(method, target, json: json, bytes: bytes, token: token, headers: headers)
    }

    /// `{accessToken, refreshToken, expiresIn, user}` of a seeded user (the demo user by default).
    func session(_ user: String = "demo@videgreniers.test") async throws -> (
        access: String, refresh: String, id: String
    ) {
        let reply = await send("POST", "/__understudy/token", json: ["user": .string(user)])
        guard reply.status == 200, let access = reply.json?["accessToken"]?.stringValue,
            let refresh = reply.json?["refreshToken"]?.stringValue, let id = reply.json?["user"]?["id"]?.stringValue
        else {
            throw LiveMockError(
                "no token for \(user): \(reply.status) \(String(decoding: reply.response.body, as: UTF8.self))")
        }
        return (access, refresh, id)
    }

    func token(_ user: String = "demo@videgreniers.test") async throws -> String { try await session(user).access }

    /// A valid `CreateEventCommand` starting `days` days after the clock, lasting ten hours.
    func eventCommand(title: String = "Vide-grenier de la rue des Lilas", days: Double = 3) -> [String: JSONValue] {
        let start = clock.seconds + days * 86_400
        return [
            "title": .string(title),
            "description": "Une cinquantaine d'exposants, buvette et petite restauration.",
            "eventType": 0,
            "startDate": Self.date(start),
            "endDate": Self.date(start + 36_000),
            "street": "12 rue des Lilas",
            "city": "Lyon",
            "postalCode": "69003",
            "country": "France",
            "latitude": 45.76,
            "longitude": 4.85,
            "entryFeeAmount": .number(JSONNumber(2)),
            "entryFeeCurrency": "EUR",
            "allowsEarlyBird": false,
        ]
    }

    /// Creates an event as `token`'s user and returns its id.
    func createEvent(token: String, title: String = "Vide-grenier de la rue des Lilas", days: Double = 3) async throws
        -> String
    {
        let reply = await send(
            "POST", "/api/events", json: .object(eventCommand(title: title, days: days)), token: token)
        guard reply.status == 201, let id = reply.json?["data"]?["id"]?.stringValue else {
            throw LiveMockError(
                "create failed: \(reply.status) \(String(decoding: reply.response.body, as: UTF8.self))")
        }
        return id
    }

    /// The ids of the events an anonymous caller sees on the first page of 100.
    func publicEventIDs() async -> [String] {
        await send("GET", "/api/events?pageSize=100").json?["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
            ?? []
    }

    static func text(_ response: MockResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// The `errors` of an error envelope.
    static func errors(_ json: JSONValue?) -> [String] {
        json?["errors"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
