import Foundation

/// Turns what the app's `JSONDecoder` throws into a finding located with a JSON Pointer.
///
/// This is the second verdict on a response: valid JSON that the app still cannot decode (fractional
/// seconds under `.iso8601`, an unknown enum case, `null` in a non-optional property) is reported here
/// even when schema validation has nothing to say.
public enum DecodeVerdict {
    /// The finding for an error thrown while decoding `body`, or `nil` for a non-decoding error.
    /// - Parameters:
    ///   - error: what `JSONDecoder.decode` threw.
    ///   - body: the parsed body, to describe what was found at the failing location.
    ///   - model: the name of the model being decoded.
    public static func diagnostic(for error: any Error, body: JSONValue?, model: String) -> Diagnostic? {
        guard let error = error as? DecodingError else { return nil }
        switch error {
        case .typeMismatch(let type, let context):
            let pointer = pointer(context.codingPath)
            let found = body.flatMap { value(at: pointer, in: $0) }.map(Render.found) ?? "another type"
            let expected = Self.name(type)
            return Diagnostic(
                .error, rule: .decodeTypeMismatch, at: pointer,
                message: "the app cannot decode \(model): expected \(expected), found \(found)",
                expected: expected, found: found, context: ["decoder": context.debugDescription])
        case .valueNotFound(let type, let context):
            let pointer = pointer(context.codingPath)
            let expected = Self.name(type)
            return Diagnostic(
                .error, rule: .decodeValueNotFound, at: pointer,
                message: "the app cannot decode \(model): expected \(expected), found null",
                expected: expected, found: "null", context: ["decoder": context.debugDescription])
        case .keyNotFound(let key, let context):
            let pointer = pointer(context.codingPath + [key])
            return Diagnostic(
                .error, rule: .decodeKeyNotFound, at: pointer,
                message: "the app cannot decode \(model): required key \"\(key.stringValue)\" is missing",
                expected: "key \"\(key.stringValue)\"", found: "absent", context: ["decoder": context.debugDescription])
        case .dataCorrupted(let context):
            let pointer = pointer(context.codingPath)
            let found = body.flatMap { value(at: pointer, in: $0) }.map(Render.found)
            return Diagnostic(
                .error, rule: .decodeDataCorrupted, at: pointer,
                message: "the app cannot decode \(model): \(context.debugDescription)"
                    + (found.map { " (found \($0))" } ?? ""),
                expected: nil, found: found, context: ["decoder": context.debugDescription])
        @unknown default:
            return Diagnostic(.error, rule: .decodeDataCorrupted, message: "the app cannot decode \(model): \(error)")
        }
    }

    /// The JSON Pointer of a coding path (array positions become indices).
    public static func pointer(_ codingPath: [any CodingKey]) -> JSONPointer {
        JSONPointer(tokens: codingPath.map { key in key.intValue.map(String.init) ?? key.stringValue })
    }

    /// The value a pointer designates, if any.
    public static func value(at pointer: JSONPointer, in root: JSONValue) -> JSONValue? {
        var current = root
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is [Any].Type: "array"
        case is [String: Any].Type: "object"
        default: SchemaInference.name(of: type)
        }
    }
}

/// Both verdicts on a body: schema validation and the app's decode.
public enum BodyCheck {
    /// Every finding for `bytes` as a body of `model` in `spec`: invalid JSON, schema violations,
    /// and the app's decode failure. A request's `readOnly` members are not required, nor a response's `writeOnly`
    /// ones.
    public static func findings(
        _ bytes: [UInt8], model: ModelReference, spec: APISpec, direction: MessageDirection = .response,
        parser: JSONParser = JSONParser()
    ) -> [Diagnostic] {
        inspect(bytes, model: model, spec: spec, direction: direction, parser: parser).findings
    }

    /// The ``findings(_:model:spec:parser:)``, and the body they parsed (`nil` when it is not JSON), so a caller
    /// that reads the body too parses it once.
    public static func inspect(
        _ bytes: [UInt8], model: ModelReference, spec: APISpec, direction: MessageDirection = .response,
        parser: JSONParser = JSONParser()
    ) -> (findings: [Diagnostic], body: JSONValue?) {
        // The app's decode runs before the tree is built, so the two never hold memory at the same time: a
        // 30 MB answer costs the larger of them, not their sum.
        let decodeError = model.decodeError(bytes, settings: spec.app.decoder)
        let body: JSONValue
        do {
            body = try parser.parse(bytes)
        } catch {
            let finding = Diagnostic(
                .error, rule: .invalidJSON, at: .root, message: "the body is not JSON: \(error)",
                expected: "JSON", found: Render.preview(bytes))
            return ([finding], nil)
        }
        let findings =
            validation(body, model: model, spec: spec, direction: direction)
            + (decodeError.flatMap { DecodeVerdict.diagnostic(for: $0, body: body, model: model.name) }.map { [$0] } ?? [])
        return (findings, body)
    }

    /// The findings for an already parsed body (`bytes` are what the app decodes).
    public static func findings(_ body: JSONValue, bytes: [UInt8], model: ModelReference, spec: APISpec) -> [Diagnostic] {
        var findings = validation(body, model: model, spec: spec, direction: .response)
        if let error = model.decodeError(bytes, settings: spec.app.decoder),
            let finding = DecodeVerdict.diagnostic(for: error, body: body, model: model.name)
        {
            findings.append(finding)
        }
        return findings
    }

    /// The schema verdict, repeats merged (one finding per rule and location, with occurrences).
    private static func validation(
        _ body: JSONValue, model: ModelReference, spec: APISpec, direction: MessageDirection
    ) -> [Diagnostic] {
        model.findings(body, in: spec, direction: direction, mergingRepeats: true)
    }
}

extension Render {
    /// The first bytes of a body, printable, for "found" in a message.
    package static func preview(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "an empty body" }
        let prefix = String(decoding: bytes.prefix(40), as: UTF8.self)
            .map { $0.isASCII && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0.isSymbol || $0 == " ") ? String($0) : "." }
            .joined()
        return quoted(prefix + (bytes.count > 40 ? "..." : ""))
    }
}
