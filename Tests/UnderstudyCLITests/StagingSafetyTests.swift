import Foundation
import Glibc
import Testing
import UnderstudyCheck
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyOpenAPI
import UnderstudyTestSupport

/// `check --allow-writes` is a guest on staging: against a stateful `mock --spec` holding seeded items, it changes
/// only what it made (issue "Safe and quiet against a real staging server", item 1). The document is shaped as the
/// two servers that lost their data were: a JSON storage server (buckets holding collections, every verb on both
/// levels, items named in `data.id`, which the item schema does not declare, a batch endpoint) and a workflow server
/// (bulk deletes and state changes chosen by a filter).
struct StagingSafetyTests {
    static let document = #"""
        openapi: 3.0.3
        info: {title: Storage, version: "1"}
        components:
          schemas:
            Bucket:
              type: object
              properties:
                data: {type: object, required: [title], properties: {title: {type: string, maxLength: 20}}}
                permissions: {type: object, properties: {write: {type: array, items: {type: string}}}}
            Buckets:
              type: object
              properties:
                data: {type: array, items: {type: object, properties: {id: {type: string}, title: {type: string}}}}
            Filter:
              type: object
              properties:
                filter: {type: object, properties: {title: {type: string, nullable: true}}}
            Batch:
              type: object
              properties:
                requests: {type: array, items: {type: object, properties: {method: {type: string}, path: {type: string}}}}
        paths:
          /buckets:
            get:
              responses: {'200': {description: All, content: {application/json: {schema: {$ref: '#/components/schemas/Buckets'}}}}}
            post:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}
              responses: {'201': {description: Made, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}}
            delete:
              responses: {'200': {description: Every bucket deleted}}
          /buckets/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: string}}]
            get:
              responses:
                '200': {description: One, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}
                '404': {description: None}
            put:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}
              responses: {'200': {description: Replaced, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}}
            patch:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}
              responses: {'200': {description: Updated, content: {application/json: {schema: {$ref: '#/components/schemas/Bucket'}}}}}
            delete:
              responses: {'200': {description: Deleted}, '404': {description: None}}
          /buckets/{id}/collections:
            parameters: [{name: id, in: path, required: true, schema: {type: string}}]
            delete:
              responses: {'200': {description: Every collection of the bucket deleted}}
          /buckets/bulk_delete:
            post:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Filter'}}}}
              responses: {'200': {description: Deleted what the filter matched}}
          /buckets/set_state:
            post:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Filter'}}}}
              responses: {'200': {description: Changed what the filter matched}}
          /batch:
            post:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Batch'}}}}
              responses: {'200': {description: Every request run}}
        """#

    @Test func aRunChangesOnlyWhatItMade() async throws {
        let spec = try OpenAPIImport.spec(Array(Self.document.utf8), source: "storage.yaml")
        let server = try await MockServer.start(try await ResourceMock(spec: spec))
        let base = server.baseURL.absoluteString
        let seeded = try await LoopbackHTTP.send("GET", base + "/buckets")
        let seededIDs = (seeded.json?["data"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        let options = CheckOptions(
            baseURL: base, allowWrites: true, transport: HTTPTransport.Options(timeout: .seconds(120)))
        let report = await Checker(spec: spec, options: options).run()
        let after = try await LoopbackHTTP.send("GET", base + "/buckets")
        await server.stop()

        #expect(!seededIDs.isEmpty, "the mock seeds buckets")
        #expect(after.text == seeded.text, "the seeded buckets are as they were, and none of the run's is left")
        let writes = report.sent.filter { $0.method != .get }.map {
            "\($0.method.rawValue) \(URL(string: $0.url)?.path ?? "")"
        }
        for write in writes {
            #expect(!seededIDs.contains { write.hasSuffix("/buckets/\($0)") || write.contains("/buckets/\($0)/") }, "\(write)")
        }
        for never in ["DELETE /buckets", "POST /buckets/bulk_delete", "POST /buckets/set_state", "POST /batch"] {
            #expect(!writes.contains(never), "\(writes)")
        }
        // The run's own bucket, named by `data.id` in the create's answer, was changed and removed.
        #expect(writes.first == "POST /buckets", "\(writes)")
        for made in ["PUT /buckets/", "PATCH /buckets/", "DELETE /buckets/"] {
            #expect(writes.contains { $0.hasPrefix(made) && !$0.hasSuffix("/collections") }, "\(made) in \(writes)")
        }
        var skipped: [String: String] = [:]
        for record in report.endpoints { skipped[record.endpoint] = record.skipped }
        #expect(skipped["POST /buckets/bulk_delete"] == "not sent: its name says it acts on many items (bulk), not on one the run made (--destructive sends it)")
        #expect(skipped["POST /batch"] == "not sent: its name says it acts on many items (batch), not on one the run made (--destructive sends it)")
        #expect(skipped["POST /buckets/set_state"] == "not sent: it chooses what it acts on by its filter, not an item the run made (--destructive sends it)")
        #expect(report.findings.filter { $0.severity == .error }.map { "\($0.endpoint ?? "") \($0.summary)" } == [])
    }
}

extension StagingSafetyTests {
    /// `check --plan` prints every request the run would send and each write it withholds, rehearsed on a mock of the
    /// document: the server named by `--base-url` (a loopback socket that listens and never accepts) gets no
    /// connection at all.
    @Test func aPlanListsTheRunWithoutSendingIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-plan-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("storage.yaml")
        try Data(Self.document.utf8).write(to: document)
        let staging = try QuietListener()
        defer { staging.close() }
        let base = "http://127.0.0.1:\(staging.port)"

        let run = try await UnderstudyBinary.run([
            "check", "--spec", document.path, "--base-url", base, "--allow-writes", "--plan",
        ])

        #expect(run.status == 0, "\(run.stderr)")
        #expect(staging.connectionsWaiting() == 0, "the plan connected to --base-url")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Plan: the requests check would send, rehearsed on a mock of the API (nothing was sent to \(base)).")
        let steps = lines.filter { $0.range(of: #"^ +[0-9]+  "#, options: .regularExpression) != nil }
        #expect(steps.count > 5, "\(run.stdout)")
        #expect(steps.allSatisfy { $0.contains(" \(base)/") }, "\(steps)")
        // The run's own bucket: created, read back, changed and removed, each with what the mock answered.
        #expect(steps.contains { $0.contains("→201 POST    \(base)/buckets  {") }, "\(run.stdout)")
        #expect(steps.contains { $0.contains("→200 DELETE  \(base)/buckets/") }, "\(run.stdout)")
        let withheld = lines.firstIndex { $0.contains("withheld") && $0.contains("POST    \(base)/buckets/bulk_delete") }
        #expect(withheld.map { lines[$0 + 1].trimmingCharacters(in: .whitespaces) }
            == "not sent: its name says it acts on many items (bulk), not on one the run made", "\(run.stdout)")
        #expect(lines.last?.hasSuffix("withheld (--destructive sends them).") == true, "\(lines.last ?? "")")
    }
}

/// A loopback TCP socket that listens and never accepts: whether anything tried to connect is then a question of
/// its backlog.
private struct QuietListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw SupportError("cannot listen on 127.0.0.1") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// How many connections wait to be accepted (each is accepted and closed).
    func connectionsWaiting() -> Int {
        var count = 0
        while case let client = accept(descriptor, nil, nil), client >= 0 {
            Glibc.close(client)
            count += 1
        }
        return count
    }

    func close() { Glibc.close(descriptor) }
}
