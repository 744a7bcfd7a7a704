import Foundation
import UnderstudyCheck
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudySpecs

/// How long a full read check of each API takes against its mock on loopback, next to the time the same
/// requests take when only sent and received (the baseline, measured in the same run): the difference is
/// what planning, validation and the app-decode verdict cost. Goal: under one second per API.
@main
struct CheckBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        let iterations = arguments.firstIndex(of: "--iterations").flatMap { Int(arguments[$0 + 1]) } ?? 5
        print("full read check per API against its local mock (loopback); median of \(iterations) runs")
        print("API            requests   check (ms)   send only (ms)   goal < 1000 ms")
        var allMet = true
        for (api, spec) in [
            (MockAPI.apinest, Fitness.spec), (.apinest, Achievements.spec), (.videgreniers, VideGreniers.spec),
            (.easyco, EasyCo.spec), (.intra42, Intra42.spec),
        ] {
            let server = try await MockServer.start(api)
            let credentials = try await credentials(for: spec, server: server)
            let options = CheckOptions(baseURL: server.baseURL.absoluteString, credentials: credentials)
            let transport = HTTPTransport()
            var checks: [Double] = []
            var sends: [Double] = []
            var requests = 0
            for _ in 0..<iterations {
                let report = await Checker(spec: spec, options: options).run(transport: transport)
                guard !report.findings.contains(where: { $0.severity == .error }) else {
                    fatalError("\(spec.id): the mock does not pass its own check")
                }
                checks.append(report.seconds)
                requests = report.requests
                let started = ContinuousClock.now
                for request in report.sent { _ = await transport.send(request) }
                sends.append((ContinuousClock.now - started).inSeconds)
            }
            await transport.shutdown()
            await server.stop()
            let check = median(checks)
            allMet = allMet && check < 1
            print(
                spec.id.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(
                        format: " %8d %12.1f %16.1f   %@", requests, check * 1000, median(sends) * 1000,
                        check < 1 ? "met" : "NOT met"))
        }
        print(allMet ? "goal met for every API" : "goal NOT met")
    }

    static func credentials(for spec: APISpec, server: MockServer) async throws -> Credentials {
        let answer = try await server.engine.behaviour.issueToken(for: nil)
        let token = answer["accessToken"]?.stringValue ?? answer["access_token"]?.stringValue
        var anonKey: String?
        if spec.auth == .supabase {
            // The anon key, read from the startup notes as a user reads it from `understudy mock`.
            let prefix = "apikey (anon key): "
            anonKey = await server.engine.behaviour.startupNotes().first { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count))
            }
        }
        return Credentials(token: token, apiKey: anonKey)
    }

    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}
