import Foundation
import Testing
import UnderstudyCheck
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyOpenAPI
import UnderstudySpecs

/// `check --spec --allow-writes` against `mock --spec`, on every test document (the public ones no one here wrote
/// among them), over real loopback sockets: the checker explores each document's resources (ids from list answers,
/// its own items created, read back, changed, acted on and deleted) and reports no error, reaching nine operations
/// in ten at least, and every operation of the pinned resource graph (`Tests/Documents/resources/`) but the deletes
/// of items it did not make.
struct SpecExplorationTests {
    /// What each operation needs to be called: a bearer, an API key, a basic credential.
    static let credentials = Credentials(
        token: FixtureMock.readyToken, apiKey: "understudy",
        headers: HeaderFields([(name: "Authorization", value: "Basic dW5kZXJzdHVkeTpzZWNyZXQ=")]))

    /// The share of operations reached over all the documents, at least.
    static let minimumCoverage = 0.9

    /// `check --spec` of `spec` against its own stateful `mock --spec`, on a loopback port.
    static func check(
        _ spec: APISpec, credentials: Credentials = Credentials(), allowWrites: Bool = true, probes: Bool = true
    ) async throws -> CheckReport {
        let server = try await MockServer.start(try await ResourceMock(spec: spec))
        let options = CheckOptions(
            baseURL: server.baseURL.absoluteString + spec.basePath, credentials: credentials,
            allowWrites: allowWrites, probes: probes, transport: HTTPTransport.Options(timeout: .seconds(120)))
        let report = await Checker(spec: spec, options: options).run()
        await server.stop()
        return report
    }

    static func explore(_ document: String) async throws -> (spec: APISpec, report: CheckReport) {
        let spec = try SpecMockTests.spec(SpecMockTests.documents.appendingPathComponent(document).path)
        var credentials = Self.credentials
        // A bearer and a basic credential both go in `Authorization`: give the basic one where no bearer is taken.
        let takesBearer = spec.endpoints.contains { endpoint in
            endpoint.security.joined().contains { if case .bearer = $0 { true } else { false } }
        }
        if !takesBearer {
            credentials.token = nil
        } else {
            credentials.headers = HeaderFields()
        }
        return (spec, try await check(spec, credentials: credentials))
    }

    /// A logout sent among the other writes would end the run's session halfway: the explorer sends it after
    /// everything else, the clean-up included, on any API. A delete of a whole collection is never sent: it would
    /// remove what the check did not make.
    @Test func aLogoutIsSentLastAndACollectionNeverDeleted() async throws {
        let document = #"""
            openapi: 3.0.3
            info: {title: Notes, version: "1"}
            security: [{bearer: []}]
            components:
              securitySchemes:
                bearer: {type: http, scheme: bearer}
              schemas:
                Note:
                  type: object
                  required: [id, text]
                  properties:
                    id: {type: integer, readOnly: true}
                    text: {type: string, maxLength: 40}
            paths:
              /auth/logout:
                post:
                  responses: {'204': {description: Signed out}}
              /notes:
                get:
                  responses:
                    '200': {description: Notes, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Note'}}}}}
                post:
                  requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
                  responses:
                    '201': {description: Made, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
                delete:
                  responses: {'204': {description: Every note deleted}}
              /notes/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                get:
                  responses:
                    '200': {description: A note, content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
                    '404': {description: No such note}
                delete:
                  responses:
                    '204': {description: Deleted}
                    '404': {description: No such note}
            """#
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "notes.yaml")
        let report = try await Self.check(spec, credentials: Credentials(token: FixtureMock.readyToken), probes: false)
        let writes = report.sent.filter { $0.method != .get }.map {
            "\($0.method.rawValue) \(URL(string: $0.url)?.path ?? "")"
        }
        #expect(writes.first == "POST /notes", "\(writes)")
        #expect(writes.dropLast().last?.hasPrefix("DELETE /notes/") == true, "\(writes)")
        #expect(writes.last == "POST /auth/logout", "\(writes)")
        #expect(!writes.contains("DELETE /notes"), "\(writes)")
        #expect(
            report.endpoints.first { $0.endpoint == "DELETE /notes" }?.skipped
                == "deletes only items the check made, and it names none")
        #expect(report.findings.filter { $0.severity == .error }.isEmpty)
    }

    /// A path value no name says where to find (`{owner}` is the user's `uuid`) is taken where the document's
    /// OpenAPI link says: from `$response.body#/uuid` of `GET /me`, or from the linked request's own path
    /// (`team: $request.path.org`), not made up. A link from a list answer is read
    /// in its first item (`/name` of the first repository), as the link object of the OpenAPI 3.1 specification's
    /// own example (`Tests/Documents/public/link-example.yaml`, `$response.body#/owner/username` on a list) means.
    @Test func pathValuesComeFromTheDocumentsLinks() async throws {
        let document = #"""
            openapi: 3.1.0
            info: {title: Repositories, version: "1"}
            paths:
              /me:
                get:
                  operationId: me
                  responses:
                    '200':
                      description: The caller
                      content:
                        application/json:
                          schema:
                            type: object
                            properties: {uuid: {type: string}, name: {type: string}, org: {type: string}}
                          example: {uuid: u-7f3a, name: Ada, org: o-41}
                      links:
                        repositories: {operationId: listRepositories, parameters: {owner: $response.body#/uuid}}
                        organization: {operationId: organization, parameters: {org: $response.body#/org}}
              /orgs/{org}:
                get:
                  operationId: organization
                  parameters: [{name: org, in: path, required: true, schema: {type: string}}]
                  responses:
                    '200':
                      description: An organization
                      content: {application/json: {schema: {type: object, properties: {label: {type: string}}}}}
                      links:
                        members: {operationId: members, parameters: {team: $request.path.org}}
              /teams/{team}/members:
                get:
                  operationId: members
                  parameters: [{name: team, in: path, required: true, schema: {type: string}}]
                  responses:
                    '200': {description: Its members, content: {application/json: {schema: {type: array, items: {type: object}}}}}
              /owners/{owner}/repositories:
                get:
                  operationId: listRepositories
                  parameters: [{name: owner, in: path, required: true, schema: {type: string, pattern: '^[a-z]-[0-9a-f]{4}$'}}]
                  responses:
                    '200':
                      description: Their repositories
                      content:
                        application/json:
                          schema: {type: array, items: {type: object, properties: {name: {type: string}}}}
                          example: [{name: understudy}]
                      links:
                        repository: {operationRef: '#/paths/~1code~1{title}/get', parameters: {title: $response.body#/name}}
              /code/{title}:
                get:
                  parameters: [{name: title, in: path, required: true, schema: {type: string}}]
                  responses:
                    '200': {description: A repository, content: {application/json: {schema: {type: object}}}}
            """#
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "repositories.yaml")
        let report = try await Self.check(spec, allowWrites: false, probes: false)
        let paths = report.sent.map { URL(string: $0.url)?.path ?? "" }
        #expect(paths.contains("/owners/u-7f3a/repositories"), "\(paths)")
        #expect(paths.contains("/code/understudy"), "\(paths)")
        // `$request.path.org`: the team is the organization the linked read named.
        #expect(paths.contains("/orgs/o-41") && paths.contains("/teams/o-41/members"), "\(paths)")
        #expect(report.findings.filter { $0.severity == .error }.isEmpty, "\(report.findings.map(\.summary))")
    }

    /// A link's value may also come from the answer's headers, the request's query or body, or the link itself
    /// (OpenAPI 3.1 §4.8.20.4, runtime expressions; a value that is not an expression is a constant).
    @Test func linkValuesComeFromHeadersQueriesBodiesAndConstants() async throws {
        let document = #"""
            openapi: 3.0.3
            info: {title: Sources, version: "1"}
            paths:
              /session:
                get:
                  responses:
                    '200':
                      description: The session, its account in a header
                      headers: {X-Account: {schema: {type: string, enum: [acc-9]}}}
                      content: {application/json: {schema: {type: object}}}
                      links:
                        account: {operationId: account, parameters: {account: $response.header.X-Account}}
                        release: {operationId: release, parameters: {version: v2}}
              /search:
                get:
                  parameters: [{name: owner, in: query, required: true, schema: {type: string, enum: [q-5]}}]
                  responses:
                    '200':
                      description: Found
                      content: {application/json: {schema: {type: array, items: {type: object}}}}
                      links:
                        stars: {operationId: stars, parameters: {owner: '{$request.query.owner}'}}
              /drafts:
                post:
                  requestBody:
                    content: {application/json: {schema: {type: object, required: [title], properties: {title: {type: string, enum: [d-3]}}}}}
                  responses:
                    '201':
                      description: Drafted
                      content: {application/json: {schema: {type: object}}}
                      links:
                        preview: {operationId: preview, parameters: {title: $request.body#/title}}
              /accounts/{account}:
                get:
                  operationId: account
                  parameters: [{name: account, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: An account, content: {application/json: {schema: {type: object}}}}}
              /releases/{version}:
                get:
                  operationId: release
                  parameters: [{name: version, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: A release, content: {application/json: {schema: {type: object}}}}}
              /owners/{owner}/stars:
                get:
                  operationId: stars
                  parameters: [{name: owner, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: Stars, content: {application/json: {schema: {type: array, items: {type: object}}}}}}
              /previews/{title}:
                get:
                  operationId: preview
                  parameters: [{name: title, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: A preview, content: {application/json: {schema: {type: object}}}}}
            """#
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "sources.yaml")
        #expect(
            spec.endpoint("GET /session")?.links.map(\.values).sorted { $0.keys.first! < $1.keys.first! } == [
                ["account": .responseHeader("X-Account")], ["version": .constant("v2")],
            ])
        let report = try await Self.check(spec, probes: false)
        let paths = report.sent.map { URL(string: $0.url)?.path ?? "" }
        for expected in ["/accounts/acc-9", "/releases/v2", "/owners/q-5/stars", "/previews/d-3"] {
            #expect(paths.contains(expected), "\(expected): \(paths)")
        }
    }

    /// The documents Understudy exports for its built-in APIs work as they are in `mock --spec`: the generic engine
    /// honours what they declare of their lists, the meanings of their query parameters (`x-understudy-meaning`:
    /// VideGreniers' `eventType`, `sortBy`/`sortDescending` and `daysAhead`, 42's `filter[active]`, `filter[future]`
    /// and `range[begin_at]`) and their page-in-body paging (`page`/`pageSize` and `/pagination`), so the checker's
    /// semantic and paging probes find nothing. Before, the same run reported 11 errors on three of the four
    /// (`semantics.filter-ignored`, `semantics.order-ignored`, `semantics.window-ignored`, `pagination.page-size`);
    /// fitness' `visibility` was kept by the filter of parameters named after a member.
    /// EasyCo is left out: its document is PostgREST's, whose filters (`id=eq.…`) only the PostgREST engine reads.
    @Test(arguments: ["fitness", "achievements", "videgreniers", "intra42"])
    func anExportedDocumentIsMockedAsItDeclares(api: String) async throws {
        let builtIn = try #require(Specs.all.first { $0.id == api })
        let spec = try OpenAPIImport.spec(Array(try OpenAPIExport.json(builtIn).utf8), source: "\(api).openapi.json")
        let report = try await Self.check(spec, credentials: Credentials(token: FixtureMock.readyToken))
        let errors = report.findings.filter { $0.severity == .error }.map { "\($0.endpoint ?? "") \($0.summary)" }
        #expect(errors == [], "\(api)")
    }

    /// Whether a resource's create names what it made: in its answer or a `Location`. Swagger's Petstore 2 documents
    /// only a 405 for `POST /pet`, and only a `default` without a body for `POST /user`.
    static func namesWhatItMakes(_ resource: Resource, in spec: APISpec) -> Bool {
        guard let create = resource.operation(.create), let endpoint = spec.endpoint(create.endpoint),
            endpoint.documentsSuccess
        else { return false }
        let headers = endpoint.documentedResponse(for: endpoint.success.rawValue)?.headers ?? []
        return create.answer != nil || headers.contains { $0.name.lowercased() == "location" }
    }

    @Test func theCheckerExploresEveryDocumentWithoutAnError() async throws {
        var reached = 0
        var total = 0
        var unreached: [String] = []
        for document in ResourceGraphTests.documents {
            let (spec, report) = try await Self.explore(document)
            let errors = report.findings.filter { $0.severity == .error }.map { "\($0.endpoint ?? "") \($0.summary)" }
            #expect(errors == [], "\(document)")
            let called = Set(report.endpoints.filter { $0.skipped == nil }.map(\.endpoint))
            // A write that would change what the run did not make is not sent, and says so (``WritePolicy``): an
            // item whose create answers no success (the Petstore's `POST /pet` documents only 405), a follow of
            // another user's profile, a `read-all`.
            let refused = Set(
                report.endpoints.filter { $0.skipped?.hasPrefix("not sent: ") == true }.map(\.endpoint))
            for resource in ResourceGraph(spec: spec).resources {
                for operation in resource.operations
                where !called.contains(operation.endpoint) && !refused.contains(operation.endpoint) {
                    // The check deletes only what it made, and never a whole collection (Gotify's `DELETE /message`).
                    if operation.role == .delete && !Self.namesWhatItMakes(resource, in: spec) { continue }
                    if spec.endpoint(operation.endpoint).map({ $0.method == .delete && $0.path == resource.collection })
                        == true
                    {
                        continue
                    }
                    Issue.record(
                        "\(document): \(operation.role.rawValue) \(operation.endpoint) of \(resource.name) not reached")
                }
            }
            total += spec.endpoints.count
            reached += called.count
            unreached += report.endpoints.compactMap { record in
                record.skipped.map { "\(document) \(record.endpoint): \($0)" }
            }
        }
        #expect(Double(reached) / Double(total) >= Self.minimumCoverage, "\(reached) of \(total); \(unreached)")
    }
}
