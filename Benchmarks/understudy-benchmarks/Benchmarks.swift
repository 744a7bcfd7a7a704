import Foundation
import UnderstudyCore
import UnderstudySpecs

/// Validator throughput next to the cost of parsing the same bytes, in one run.
///
/// Builds a ~10 MB `GET /activities` response (about 20,000 generated activities), then times, best of
/// N runs: parsing with `JSONParser`, validating the parsed value, the app's `JSONDecoder` decode, and
/// Foundation's `JSONSerialization` as an outside reference. The goal is validation ≤ parse.
@main
struct Benchmarks {
    static func main() throws {
        let arguments = CommandLine.arguments
        // The parse alone of a file, or the app's decode alone (`--app-decode API "GET /path" FILE`), for scripts
        // that set a command's time and memory beside them.
        if let index = arguments.firstIndex(of: "--parse-only"), index + 1 < arguments.count {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[index + 1])))
            let start = ContinuousClock.now
            let value = try JSONParser().parse(bytes)
            print("parsed \(bytes.count) bytes in \(ContinuousClock.now - start): \(value.objectValue?.count ?? 0) members")
            return
        }
        if let index = arguments.firstIndex(of: "--app-decode"), index + 3 < arguments.count,
            let spec = Specs.named(arguments[index + 1])?.first,
            let model = spec.endpoint(arguments[index + 2])?.response
        {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: arguments[index + 3])))
            let start = ContinuousClock.now
            let error = model.decodeError(bytes, settings: spec.app.decoder)
            print("decoded \(bytes.count) bytes as \(model.name) in \(ContinuousClock.now - start): \(error.map { "\($0)" } ?? "ok")")
            return
        }
        let iterations = arguments.firstIndex(of: "--iterations").flatMap { Int(arguments[$0 + 1]) } ?? 5
        let targetBytes =
            arguments.firstIndex(of: "--megabytes").flatMap { Int(arguments[$0 + 1]) }.map { $0 << 20 } ?? 10 << 20

        let spec = Fitness.spec
        guard let endpoint = spec.endpoint("GET /activities"), let model = endpoint.response,
            case .array(let array) = model.schema.resolvingReferences(in: spec.definitions)
        else { fatalError("GET /activities must answer an array") }
        var generator = FixtureGenerator(seed: 2026, definitions: spec.definitions, settings: spec.wire)
        var activities: [JSONValue] = []
        var size = 2
        while size < targetBytes {
            let activity = generator.value(for: array.items)
            size += activity.serialized().utf8.count + 1
            activities.append(activity)
        }
        let bytes = JSONValue.array(activities).serializedBytes()
        let data = Data(bytes)
        let megabytes = Double(bytes.count) / 1_048_576
        print(
            "body: \(activities.count) activities, \(String(format: "%.2f", megabytes)) MiB; best of \(iterations) runs"
        )

        let parsed = try JSONParser().parse(bytes)
        let validator = Validator(definitions: spec.definitions)
        let findings = validator.validate(parsed, against: model.schema)
        guard findings.isEmpty else { fatalError("generated body is invalid: \(findings.prefix(3).map(\.summary))") }

        let parse = best(iterations) { _ = try? JSONParser().parse(bytes) }
        let validate = best(iterations) { _ = validator.validate(parsed, against: model.schema) }
        let both = best(iterations) {
            if let value = try? JSONParser().parse(bytes) { _ = validator.validate(value, against: model.schema) }
        }
        let decode = best(iterations) { _ = model.decodeError(data, settings: spec.app.decoder) }
        let foundation = best(iterations) { _ = try? JSONSerialization.jsonObject(with: data) }

        func row(_ name: String, _ seconds: Double) -> String {
            let name = name.padding(toLength: 40, withPad: " ", startingAt: 0)
            return
                "\(name) \(String(format: "%8.1f", seconds * 1000)) ms  \(String(format: "%7.1f", megabytes / seconds)) MiB/s"
        }
        print(row("parse (JSONParser)", parse))
        print(row("validate (parsed value)", validate))
        print(row("parse + validate", both))
        print(row("app decode (JSONDecoder, [Activity])", decode))
        print(row("JSONSerialization (reference)", foundation))
        let ratio = validate / parse
        print(String(format: "validation / parse = %.2f (goal: <= 1.00) -> %@", ratio, ratio <= 1 ? "met" : "NOT met"))

        // The mocks write their answers as models through `APISpec.wireJSON`: encode, parse, shape by schema.
        let models = try spec.wire.makeDecoder().decode([Apinest.Activity].self, from: data)
        try wire(models, in: spec, label: "[Activity]", iterations: iterations)
        let events = try VideGreniers.spec.wire.makeDecoder().decode(
            [VideGreniers.EventDto].self, from: Data(JSONValue.array(eventRows(bytes: targetBytes)).serializedBytes()))
        try wire(events, in: VideGreniers.spec, label: "[EventDto]", iterations: iterations)
    }

    /// Generated VideGreniers events of about `bytes` in all.
    static func eventRows(bytes: Int) -> [JSONValue] {
        let spec = VideGreniers.spec
        var generator = FixtureGenerator(
            seed: 2026, definitions: spec.definitions, settings: spec.wire, optionalKeys: spec.optionalKeys)
        var rows: [JSONValue] = []
        var size = 2
        while size < bytes {
            let row = generator.value(for: .ref("VideGreniers.EventDto"))
            size += row.serialized().utf8.count + 1
            rows.append(row)
        }
        return rows
    }

    /// `wireJSON` next to the plain `JSONEncoder` encode it starts with; the goal is at most 3× the encode.
    static func wire<Model: Encodable>(
        _ models: [Model], in spec: APISpec, label: String, iterations: Int
    ) throws {
        let encoder = spec.wire.makeEncoder()
        let size = Double(try encoder.encode(models).count) / 1_048_576
        let encode = best(iterations) { _ = try? encoder.encode(models) }
        let wire = best(iterations) { _ = try? spec.wireJSON(models) }
        let serialize = best(iterations) { _ = try? spec.wireBytes(models) }
        print("\(spec.id) \(label): \(models.count) models, \(String(format: "%.2f", size)) MiB written")
        for (name, seconds) in [
            ("encode (JSONEncoder)", encode), ("wireJSON", wire), ("wireBytes (the mock's answer)", serialize),
        ] {
            let padded = name.padding(toLength: 40, withPad: " ", startingAt: 0)
            print(
                "\(padded) \(String(format: "%8.1f", seconds * 1000)) ms  \(String(format: "%7.1f", size / seconds)) MiB/s"
            )
        }
        let ratio = serialize / encode
        print(String(format: "wireBytes / encode = %.2f (goal: <= 3.00) -> %@", ratio, ratio <= 3 ? "met" : "NOT met"))
    }

    static func best(_ iterations: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds)
        }
        return best
    }
}
