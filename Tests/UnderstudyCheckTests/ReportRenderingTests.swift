import Testing
import UnderstudyCore

@testable import UnderstudyCheck

/// The report formats CI parses are pinned byte for byte.
struct ReportRenderingTests {
    static let report = CheckReport(
        api: "fitness", baseURL: "http://127.0.0.1:4010",
        findings: [
            Diagnostic(.note, rule: .unknownProperty, at: JSONPointer(tokens: ["0", "mood"]), endpoint: "GET /activities",
                message: "property is not in the model; JSONDecoder ignores it"),
            Diagnostic(.error, rule: .requiredMissing, at: JSONPointer(tokens: ["0", "title"]), endpoint: "GET /activities",
                message: "required property is missing (expected string)", expected: "string", found: "absent",
                context: ["curl": "curl -sS -i 'http://127.0.0.1:4010/activities' -H \"Authorization: Bearer $UNDERSTUDY_TOKEN\""]),
        ],
        endpoints: [
            .init(endpoint: "GET /activities", requests: 1, seconds: 0.0125),
            .init(endpoint: "GET /activities/{id}", requests: 1, seconds: 0.004),
            .init(endpoint: "POST /activities", requests: 0, seconds: 0, skipped: "changes data: runs only with --allow-writes"),
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
                      "endpoint": "GET /activities",
                      "requests": 1
                    },
                    {
                      "endpoint": "GET /activities/{id}",
                      "requests": 1
                    },
                    {
                      "endpoint": "POST /activities",
                      "requests": 0,
                      "skipped": "changes data: runs only with --allow-writes"
                    }
                  ],
                  "requests": 2
                }
              ],
              "findings": [
                {
                  "context": {
                    "curl": "curl -sS -i 'http://127.0.0.1:4010/activities' -H \"Authorization: Bearer $UNDERSTUDY_TOKEN\""
                  },
                  "endpoint": "GET /activities",
                  "expected": "string",
                  "found": "absent",
                  "message": "required property is missing (expected string)",
                  "pointer": "/0/title",
                  "rule": "schema.required-missing",
                  "severity": "error"
                },
                {
                  "endpoint": "GET /activities",
                  "message": "property is not in the model; JSONDecoder ignores it",
                  "pointer": "/0/mood",
                  "rule": "schema.unknown-property",
                  "severity": "note"
                }
              ],
              "formatVersion": 1,
              "summary": {
                "endpointsChecked": 2,
                "endpointsSkipped": 1,
                "errors": 1,
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
                  <failure message="1 finding: /0/title: required property is missing (expected string)" type="schema.required-missing">error /0/title: required property is missing (expected string) [schema.required-missing]
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
            </testsuites>

            """#)
    }

    @Test func github() {
        #expect(CheckReportRenderer.github([Self.report]) == """
            ::error title=schema.required-missing::GET /activities /0/title: required property is missing (expected string)
            ::notice title=schema.unknown-property::GET /activities /0/mood: property is not in the model; JSONDecoder ignores it
            1 error, 0 warnings, 1 note

            """)
    }
}
