import Foundation
import Testing
import UnderstudyCore

@testable import UnderstudyCheck

/// The report formats CI parses are pinned byte for byte.
struct ReportRenderingTests {
    /// One root cause seen 40 times across the list: one finding with its count and first examples.
    static let merged: Diagnostic = {
        var finding = Diagnostic(
            .error, rule: .typeMismatch, at: JSONPointer(tokens: ["0", "participants"]), endpoint: "GET /activities",
            message: "expected integer, found string \"10\"", expected: "integer", found: "string \"10\"",
            context: ["field": "Apinest.Activity.participants"])
        finding.occurrences = 40
        finding.examples = [#"/1/participants: found string "12""#, #"/2/participants: found string "8""#]
        return finding
    }()

    static let report = CheckReport(
        api: "fitness", baseURL: "http://127.0.0.1:4010",
        findings: [
            Diagnostic(.note, rule: .unknownProperty, at: JSONPointer(tokens: ["0", "mood"]), endpoint: "GET /activities",
                message: "property is not in the model; JSONDecoder ignores it"),
            Diagnostic(.error, rule: .requiredMissing, at: JSONPointer(tokens: ["0", "title"]), endpoint: "GET /activities",
                message: "required property is missing (expected string)", expected: "string", found: "absent",
                context: ["curl": "curl -sS -i 'http://127.0.0.1:4010/activities' -H \"Authorization: Bearer $UNDERSTUDY_TOKEN\""]),
            merged,
        ],
        endpoints: [
            .init(endpoint: "GET /activities", requests: 1, seconds: 0.0125, elicited: [200], documented: [200, 401]),
            .init(
                endpoint: "GET /activities/{id}", requests: 1, seconds: 0.004, elicited: [200, 404, 500],
                documented: [200, 404, nil]),
            .init(
                endpoint: "POST /activities", requests: 0, seconds: 0, skipped: "changes data: runs only with --allow-writes",
                documented: [201, 400]),
        ],
        seconds: 0.02)

    @Test func json() {
        #expect(CheckReportRenderer.json([Self.report]) == #"""
            {
              "apis": [
                {
                  "api": "fitness",
                  "baseURL": "http://127.0.0.1:4010",
                  "endpoints": [
                    {
                      "documentedStatuses": [
                        200,
                        401
                      ],
                      "documentsDefault": false,
                      "elicitedStatuses": [
                        200
                      ],
                      "endpoint": "GET /activities",
                      "reached": true,
                      "requests": 1
                    },
                    {
                      "documentedStatuses": [
                        200,
                        404
                      ],
                      "documentsDefault": true,
                      "elicitedStatuses": [
                        200,
                        404,
                        500
                      ],
                      "endpoint": "GET /activities/{id}",
                      "reached": true,
                      "requests": 1
                    },
                    {
                      "documentedStatuses": [
                        201,
                        400
                      ],
                      "documentsDefault": false,
                      "elicitedStatuses": [],
                      "endpoint": "POST /activities",
                      "reached": false,
                      "requests": 0,
                      "skipped": "changes data: runs only with --allow-writes"
                    }
                  ],
                  "requests": 2
                }
              ],
              "findings": [
                {
                  "basis": "document",
                  "context": {
                    "field": "Apinest.Activity.participants"
                  },
                  "endpoint": "GET /activities",
                  "examples": [
                    "/1/participants: found string \"12\"",
                    "/2/participants: found string \"8\""
                  ],
                  "expected": "integer",
                  "found": "string \"10\"",
                  "message": "expected integer, found string \"10\"",
                  "occurrences": 40,
                  "pointer": "/0/participants",
                  "rule": "schema.type-mismatch",
                  "severity": "error"
                },
                {
                  "basis": "document",
                  "context": {
                    "curl": "curl -sS -i 'http://127.0.0.1:4010/activities' -H \"Authorization: Bearer $UNDERSTUDY_TOKEN\""
                  },
                  "endpoint": "GET /activities",
                  "expected": "string",
                  "found": "absent",
                  "message": "required property is missing (expected string)",
                  "occurrences": 1,
                  "pointer": "/0/title",
                  "rule": "schema.required-missing",
                  "severity": "error"
                },
                {
                  "basis": "document",
                  "endpoint": "GET /activities",
                  "message": "property is not in the model; JSONDecoder ignores it",
                  "occurrences": 1,
                  "pointer": "/0/mood",
                  "rule": "schema.unknown-property",
                  "severity": "note"
                }
              ],
              "formatVersion": 2,
              "summary": {
                "coverage": {
                  "documentedStatuses": 6,
                  "elicitedStatuses": 3,
                  "operations": 3,
                  "reached": 2
                },
                "endpointsChecked": 2,
                "endpointsSkipped": 1,
                "errors": 2,
                "notes": 1,
                "requests": 2,
                "warnings": 0
              }
            }

            """#)
    }

    @Test func junit() {
        #expect(CheckReportRenderer.junit([Self.report], failOn: .error) == #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="understudy check" tests="3" failures="1">
              <testsuite name="fitness" tests="3" failures="1" skipped="1" time="0.020">
                <testcase classname="fitness" name="GET /activities" time="0.013">
                  <failure message="2 findings: /*/participants: expected integer, found string &quot;10&quot;" type="schema.type-mismatch">error /*/participants: expected integer, found string &quot;10&quot; [schema.type-mismatch] ×40
              e.g. /1/participants: found string &quot;12&quot;; /2/participants: found string &quot;8&quot;
              expected: integer
              found: string &quot;10&quot;
            error /0/title: required property is missing (expected string) [schema.required-missing]
              expected: string
              found: absent
              curl: curl -sS -i &apos;http://127.0.0.1:4010/activities&apos; -H &quot;Authorization: Bearer $UNDERSTUDY_TOKEN&quot;</failure>
                  <system-out>note /0/mood: property is not in the model; JSONDecoder ignores it [schema.unknown-property]</system-out>
                </testcase>
                <testcase classname="fitness" name="GET /activities/{id}" time="0.004"/>
                <testcase classname="fitness" name="POST /activities" time="0.000">
                  <skipped message="changes data: runs only with --allow-writes"/>
                </testcase>
              </testsuite>
              <testsuite name="fitness coverage" tests="6" failures="0" skipped="3">
                <testcase classname="fitness.coverage" name="GET /activities 200"/>
                <testcase classname="fitness.coverage" name="GET /activities 401">
                  <skipped message="status not elicited"/>
                </testcase>
                <testcase classname="fitness.coverage" name="GET /activities/{id} 200"/>
                <testcase classname="fitness.coverage" name="GET /activities/{id} 404"/>
                <testcase classname="fitness.coverage" name="POST /activities 201">
                  <skipped message="operation not reached: changes data: runs only with --allow-writes"/>
                </testcase>
                <testcase classname="fitness.coverage" name="POST /activities 400">
                  <skipped message="operation not reached: changes data: runs only with --allow-writes"/>
                </testcase>
              </testsuite>
            </testsuites>

            """#)
    }

    @Test func coverageTable() {
        #expect(
            Self.report.coverageTable == """
                fitness coverage: 2 of 3 operations reached (66%), 3 of 6 documented statuses elicited
                  GET  /activities       200 ✓  401 ·
                  GET  /activities/{id}  200 ✓  404 ✓  default  +500
                  POST /activities       not reached: changes data: runs only with --allow-writes

                """)
        var minimum = Self.report
        #expect(minimum.coverageFinding(minimum: 0.6) == nil)
        let finding = minimum.coverageFinding(minimum: 0.9)
        #expect(finding?.rule == .coverageBelowMinimum)
        #expect(
            finding?.message
                == "2 of 3 operations reached (66%), 3 of 6 documented statuses elicited, below --min-coverage 90%")
        #expect(finding?.context["unreached"] == "POST /activities (changes data: runs only with --allow-writes)")
        minimum.endpoints = []
        #expect(minimum.coverage.fraction == 1)
    }

    @Test func github() {
        #expect(CheckReportRenderer.github([Self.report]) == #"""
            ::error title=schema.type-mismatch::GET /activities /*/participants: expected integer, found string "10" (×40)
            ::error title=schema.required-missing::GET /activities /0/title: required property is missing (expected string)
            ::notice title=schema.unknown-property::GET /activities /0/mood: property is not in the model; JSONDecoder ignores it
            ::notice title=coverage::fitness: 2 of 3 operations reached (66%25), 3 of 6 documented statuses elicited
            2 errors, 0 warnings, 1 note

            """#)
    }

    @Test func text() {
        #expect(TerminalDiagnosticRenderer().render(Self.report.sortedFindings) == #"""
            GET /activities
              error /*/participants: expected integer, found string "10" [schema.type-mismatch] ×40
                  e.g. /1/participants: found string "12"; /2/participants: found string "8"
              error /0/title: required property is missing (expected string) [schema.required-missing]
                  curl: curl -sS -i 'http://127.0.0.1:4010/activities' -H "Authorization: Bearer $UNDERSTUDY_TOKEN"
              note /0/mood: property is not in the model; JSONDecoder ignores it [schema.unknown-property]
            2 errors, 0 warnings, 1 note

            """#)
        #expect(TerminalDiagnosticRenderer(showNotes: false).render(Self.report.sortedFindings) == #"""
            GET /activities
              error /*/participants: expected integer, found string "10" [schema.type-mismatch] ×40
                  e.g. /1/participants: found string "12"; /2/participants: found string "8"
              error /0/title: required property is missing (expected string) [schema.required-missing]
                  curl: curl -sS -i 'http://127.0.0.1:4010/activities' -H "Authorization: Bearer $UNDERSTUDY_TOKEN"
            2 errors, 0 warnings, 1 note (notes not shown: --notes)

            """#)
    }

    /// 42's 404 body on three endpoints: one cause, resting on the `error-statuses` assumption.
    static func assumedEnvelope(_ endpoint: String, _ login: String) -> Diagnostic {
        Diagnostic(
            .error, rule: "probe.error-envelope", at: JSONPointer(tokens: ["message"]), endpoint: endpoint,
            message: "the 404 answer to an unknown login \"\(login)\" (/v2/users/\(login)) is not the API's error "
                + "envelope Intra42.APIError: required property is missing (expected string)",
            expected: "string", found: "absent"
        ).assuming("error-statuses")
    }

    /// Findings that rest on an assumption are warnings but with `--strict`, and say so in every format; the text
    /// report shows one cause on several endpoints once, naming them, while JSON keeps each place.
    @Test func anAssumptionIsAWarningThatSaysSoInEveryFormat() {
        let findings = [
            Self.assumedEnvelope("GET /v2/users/{login}", "understudy-unknown-1"),
            Self.assumedEnvelope("GET /v2/users/{login}/coalitions", "understudy-unknown-2"),
            Self.assumedEnvelope("GET /v2/users/{login}/locations", "understudy-unknown-3"),
            Diagnostic(.error, rule: .requiredMissing, at: JSONPointer(tokens: ["login"]), endpoint: "GET /v2/me",
                message: "required property is missing (expected string)"),
        ]
        var lenient = FindingLedger()
        _ = lenient.record(findings, request: nil)
        #expect(lenient.findings.map(\.severity) == [.warning, .warning, .warning, .error])
        var strict = FindingLedger(strict: true)
        _ = strict.record(findings, request: nil)
        #expect(strict.findings.map(\.severity) == [.error, .error, .error, .error])

        let report = CheckReport(
            api: "intra42", baseURL: "http://127.0.0.1:4014", findings: lenient.findings,
            endpoints: findings.map { .init(endpoint: $0.endpoint!, requests: 1, seconds: 0.001) }, seconds: 0.004)
        #expect(TerminalDiagnosticRenderer().render(report.sortedFindings) == #"""
            warning /message: the 404 answer to an unknown login "understudy-unknown-1" (/v2/users/understudy-unknown-1) is not the API's error envelope Intra42.APIError: required property is missing (expected string) [probe.error-envelope, assumed: error-statuses], on 3 endpoints
              GET /v2/users/{login}
              GET /v2/users/{login}/coalitions
              GET /v2/users/{login}/locations
            GET /v2/me
              error /login: required property is missing (expected string) [schema.required-missing]
            1 error, 3 warnings, 0 notes

            """#)

        let json = try? JSONValue(parsing: Array(CheckReportRenderer.json([report]).utf8))
        let places = json?["findings"]?.arrayValue?.filter { $0["rule"] == "probe.error-envelope" } ?? []
        #expect(places.count == 3)
        #expect(places.allSatisfy { $0["basis"] == "assumed" && $0["assumption"] == "error-statuses" })
        #expect(json?["findings"]?.arrayValue?.first { $0["endpoint"] == "GET /v2/me" }?["basis"] == "document")

        let junit = CheckReportRenderer.junit([report], failOn: .warning)
        #expect(junit.contains("[probe.error-envelope, assumed: error-statuses]"))
        let github = CheckReportRenderer.github([report])
        #expect(github.contains("::warning title=probe.error-envelope::GET /v2/users/{login} /message: the 404 answer"))
        #expect(github.contains("(expected string) (assumed: error-statuses)\n"))
    }

    /// Values and paths do not split a cause; a status does.
    @Test func aMessageShapeForgetsValuesButKeepsStatuses() {
        let shape = TerminalDiagnosticRenderer.shape
        #expect(shape(#"an unknown login "42" (/v2/users/42/coalitions) was answered with 500"#)
            == shape(#"an unknown login "x1" (/v2/users/x1) was answered with 500"#))
        #expect(shape("returned item 3, which does not match it") == shape("returned item 17, which does not match it"))
        #expect(shape("was answered with 404") != shape("was answered with 400"))
    }
}
