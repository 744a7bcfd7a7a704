import Foundation
import Hummingbird
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCheck

/// `gzip` and `deflate` bodies are judged as the app sees them, inflated, within the body cap.
struct ContentEncodingTests {
    static func encoded(_ body: [UInt8], as encoding: String) -> CannedServer.Answer {
        .response(
            status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", encoding)], body: body)
    }

    static let list = DriftTests.fixture(Fitness.spec, "GET /activities")

    @Test(arguments: ["gzip", "deflate"])
    func anEncodedValidBodyIsClean(encoding: String) async throws {
        let bytes = Self.list.serializedBytes()
        let body = encoding == "gzip" ? GzipFixture.gzip(bytes) : GzipFixture.deflate(bytes)
        let (lines, _) = try await DriftTests.check(
            Fitness.spec, DriftTests.fitnessList, answers: ["/activities": Self.encoded(body, as: encoding)])
        #expect(lines == [])
    }

    @Test func anEncodedDriftIsJudgedAfterInflating() async throws {
        var items = Self.list.arrayValue ?? []
        DriftTests.set(nil, "title", in: &items[0])
        let body = GzipFixture.gzip(JSONValue.array(items).serializedBytes())
        let (lines, _) = try await DriftTests.check(
            Fitness.spec, DriftTests.fitnessList, answers: ["/activities": Self.encoded(body, as: "gzip")])
        #expect(
            lines == [
                "error decode.key-not-found GET /activities /0/title",
                "error schema.required-missing GET /activities /0/title",
            ])
    }

    @Test func aGzipBombIsTooLargeNotAnOutOfMemory() async throws {
        // 10 MB on the wire, under the 16 MB cap; about 1.6 GB once inflated.
        let bomb = GzipFixture.zeros(size: 10 << 20)
        let findings = try await CannedServer.with(["/activities": Self.encoded(bomb, as: "gzip")]) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, probes: false, endpoints: DriftTests.fitnessList,
                transport: HTTPTransport.Options(timeout: .seconds(300), maximumBodyBytes: 16 << 20))
            return await Checker(spec: Fitness.spec, options: options).run().findings.filter { $0.severity > .note }
        }
        #expect(
            findings.map { "\($0.rule): \($0.message)" } == [
                "body.too-large: the body is larger than the 16777216-byte cap (more once inflated from gzip); "
                    + "raise --max-body-bytes to check it"
            ])
    }

    @Test func aBodyThatIsNotWhatItsEncodingSaysIsReported() async throws {
        let (lines, findings) = try await DriftTests.check(
            Fitness.spec, DriftTests.fitnessList,
            answers: ["/activities": Self.encoded(Self.list.serializedBytes(), as: "gzip")])
        #expect(lines == ["error transport.error GET /activities /"])
        #expect(
            findings.first { $0.rule == RuleID.transportError }?.message.hasPrefix("the gzip body cannot be inflated (")
                == true)
    }

    @Test func theProxyForwardsTheEncodedBytesAndJudgesTheInflatedOnes() async throws {
        var items = Self.list.arrayValue ?? []
        DriftTests.set(nil, "title", in: &items[0])
        let gzipped = GzipFixture.gzip(JSONValue.array(items).serializedBytes())
        let router = Router()
        router.get("/activities") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .contentEncoding: "gzip"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: gzipped)))
        }
        let upstream = try await TestUpstream.start(router)
        let proxy = try await ValidatingProxy.start(
            spec: Fitness.spec, upstream: upstream.baseURL, options: ProxyOptions(transport: CheckMockTests.patient))
        try await ValidatingProxyTests.withClient { client in
            let response = try #require(
                await ValidatingProxyTests.send(client, .get, proxy.baseURL.absoluteString, "/activities").response)
            #expect(response.body == gzipped)
            #expect(response.headers["Content-Encoding"] == "gzip")
            let findings = await proxy.findings
            #expect(
                findings.filter { $0.severity == .error }.map { "\($0.rule) \($0.pointer.displayString)" }.sorted() == [
                    "decode.key-not-found /0/title", "schema.required-missing /0/title",
                ])
        }
        await proxy.stop()
        await upstream.stop()
    }

    @Test func theProxyLearnsTokensFromEncodedAnswers() async throws {
        let token = String(repeating: "ab", count: 32)
        let json =
            #"{"access_token":"\#(token)","token_type":"bearer","expires_in":7200,"scope":"public","created_at":1}"#
        let gzipped = GzipFixture.gzip(Array(json.utf8))
        let router = Router()
        // An undocumented status: the finding quotes the body, token included, unless it was learnt.
        router.post("/oauth/token") { _, _ in
            Response(
                status: .init(code: 203), headers: [.contentType: "application/json", .contentEncoding: "gzip"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: gzipped)))
        }
        let upstream = try await TestUpstream.start(router)
        let proxy = try await ValidatingProxy.start(
            spec: Intra42.spec, upstream: upstream.baseURL, options: ProxyOptions(transport: CheckMockTests.patient))
        try await ValidatingProxyTests.withClient { client in
            _ = await ValidatingProxyTests.send(client, .post, proxy.baseURL.absoluteString, "/oauth/token")
            let findings = await proxy.findings
            #expect(findings.contains { $0.rule == .statusUndocumented })
            let output = TerminalDiagnosticRenderer().render(findings)
            #expect(!output.contains(token))
            #expect(output.contains("$UNDERSTUDY_TOKEN"))
        }
        await proxy.stop()
        await upstream.stop()
    }
}
