import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` stub serves the same engine to `URLSession` without a socket.
struct URLProtocolStubTests {
    @Test func urlSessionReachesTheMockInProcess() async throws {
        let stub = MockURLStub.start(try await NotesMock())
        defer { stub.stop() }
        let session = URLSession(configuration: stub.sessionConfiguration)

        let (data, response) = try await session.data(from: stub.baseURL.appendingPathComponent("notes"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"[{"id":1,"title":"First"}]"#)

        var create = URLRequest(url: stub.baseURL.appendingPathComponent("notes"))
        create.httpMethod = "POST"
        create.setValue("Bearer user", forHTTPHeaderField: "Authorization")
        create.setValue("application/json", forHTTPHeaderField: "Content-Type")
        create.httpBody = Data(#"{"title": "Via URLSession"}"#.utf8)
        let (created, createdResponse) = try await session.data(for: create)
        #expect((createdResponse as? HTTPURLResponse)?.statusCode == 201)
        #expect(try JSONValue(parsing: Array(created))["title"] == "Via URLSession")

        let (_, missing) = try await session.data(from: stub.baseURL.appendingPathComponent("nope"))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func droppedConnectionsAreNetworkErrors() async throws {
        let stub = MockURLStub.start(try await NotesMock(), configuration: MockConfiguration(faults: [try FaultRule(parsing: "*: drop")]))
        defer { stub.stop() }
        let session = URLSession(configuration: stub.sessionConfiguration)
        await #expect(throws: URLError.self) {
            _ = try await session.data(from: stub.baseURL.appendingPathComponent("notes"))
        }
    }
}
