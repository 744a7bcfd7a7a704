import Foundation
import Testing
import UnderstudyCore
import UnderstudyOpenAPI

@testable import UnderstudyCheck

/// Verdicts rest on what the document says, and on nothing it does not: a server that answers as its document says
/// gets no error, each rule on a loopback server answering exactly that (issue "Safe and quiet against a real staging
/// server", item 2; the statuses as a FastAPI server sends them).
struct DocumentedVerdictTests {
    static let document = #"""
        openapi: 3.1.0
        info: {title: Flows, version: "1"}
        components:
          schemas:
            Flow:
              type: object
              required: [id, name]
              properties:
                id: {type: string}
                name: {type: string}
            HTTPValidationError:
              type: object
              required: [detail]
              properties:
                detail: {type: array, items: {type: object, required: [loc, msg], properties: {loc: {type: array}, msg: {type: string}}}}
        paths:
          /flows:
            post:
              requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
              responses:
                '200': {description: It existed, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
                '201': {description: Made, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
                '422': {description: Invalid, content: {application/json: {schema: {$ref: '#/components/schemas/HTTPValidationError'}}}}
          /flows/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: string}}]
            get:
              responses:
                '200': {description: A flow, content: {application/json: {schema: {$ref: '#/components/schemas/Flow'}}}}
                '422': {description: Invalid, content: {application/json: {schema: {$ref: '#/components/schemas/HTTPValidationError'}}}}
          /flows/{id}/run:
            parameters: [{name: id, in: path, required: true, schema: {type: string}}]
            post:
              responses:
                '204': {description: Started, content: {application/json: {schema: {type: object}}}}
          /docs:
            get:
              responses:
                '307': {description: To the current documentation, headers: {Location: {schema: {type: string}}}}
        """#

    static let spec = try! OpenAPIImport.spec(Array(document.utf8), source: "flows.yaml")

    /// Runs the check of one endpoint against a server giving `answers`, with `id=f1` for the path.
    static func check(_ endpoint: String, _ answers: [String: CannedServer.Answer]) async throws -> CheckReport {
        try await CannedServer.with(answers) { server in
            var options = CheckOptions(
                baseURL: server.baseURL, parameters: ["id": "f1"], allowWrites: true, probes: false,
                endpoints: [endpoint], transport: CheckMockTests.patient)
            // The writes here go to an item the run did not make; the server is this test's.
            options.destructive = true
            return await Checker(spec: spec, options: options).run()
        }
    }

    static func rules(_ report: CheckReport) -> [String] {
        report.sortedFindings.filter { $0.severity > .note }.map { "\($0.severity) \($0.rule)" }
    }

    @Test func anUndocumentedStatusIsNotJudgedAgainstAnotherStatusSchema() async throws {
        let report = try await Self.check(
            "GET /flows/{id}", ["/flows/f1": .json(#"{"detail":"Flow not found"}"#, status: 404)])
        // The 422 schema is not the API's envelope for a 404 the document never mentions.
        #expect(Self.rules(report) == ["error status.undocumented"])
    }

    @Test func anyDocumentedSuccessIsASuccess() async throws {
        let report = try await Self.check(
            "POST /flows", ["/flows": .json(#"{"id":"f2","name":"nightly"}"#, status: 201)])
        #expect(Self.rules(report) == [])
        #expect(report.endpoints.first { $0.endpoint == "POST /flows" }?.requests == 1)
    }

    @Test func aDocumented204HasNoBodyWhateverItsSchemaSays() async throws {
        let report = try await Self.check(
            "POST /flows/{id}/run", ["/flows/f1/run": .response(status: 204, headers: [], body: [])])
        // A warning about the document, not an error about the server.
        #expect(Self.rules(report) == ["warning document.bodiless-status-schema"])
    }

    @Test func aDocumentedRedirectIsAnAnswerLikeAnyOther() async throws {
        let report = try await Self.check(
            "GET /docs", ["/docs": .response(status: 307, headers: [("Location", "/docs/v2")], body: [])])
        #expect(Self.rules(report) == [])
        let undocumented = try await Self.check(
            "GET /flows/{id}", ["/flows/f1": .response(status: 302, headers: [("Location", "/login")], body: [])])
        #expect(Self.rules(undocumented) == ["error status.redirect"])
    }
}
