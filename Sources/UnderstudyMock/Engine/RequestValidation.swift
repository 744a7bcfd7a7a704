import Foundation
import UnderstudyCore

/// Checks a request against its endpoint's descriptor: path, query and header parameters, and the body
/// against the request model (schema and a real decode). Every problem is named in the error, and a
/// request with any problem is refused before a handler can store anything.
struct RequestValidation {
    let route: MockEngine.Route
    let status: HTTPStatus

    var endpoint: AnyEndpoint { route.endpoint }
    var spec: APISpec { route.spec }

    func validate(_ request: inout MockRequest) throws(MockError) {
        var problems: [String] = []
        let validator = Validator(definitions: route.spec.definitions)
        for parameter in route.endpoint.parameters {
            let text: String?
            switch parameter.location {
            case .path: text = request.pathParameters[parameter.name]
            case .query: text = request.query[parameter.name]
            case .header: text = request.header(parameter.name)
            }
            let label = "\(parameter.location == .path ? "path" : parameter.location.rawValue) parameter \(parameter.name)"
            guard let text else {
                if parameter.required { problems.append("\(label) is required") }
                continue
            }
            let value = Self.coerce(text, to: parameter.schema)
            for finding in validator.validate(value, against: parameter.schema) where finding.severity == .error {
                problems.append("\(label): \(finding.message)")
            }
        }
        if let model = route.endpoint.request {
            problems += checkBody(&request, model: model, validator: validator)
        }
        if !problems.isEmpty { throw MockError(status, messages: problems) }
    }

    private func checkBody(_ request: inout MockRequest, model: ModelReference, validator: Validator) -> [String] {
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return endpoint.body == .required ? ["the request body is required (a JSON \(model.name))"] : []
        }
        let body: JSONValue
        if request.header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            let form = QueryItems(String(decoding: request.body, as: UTF8.self))
            body = .object(Dictionary(form.items.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last }))
        } else {
            do {
                body = try JSONParser().parse(request.body)
            } catch {
                return ["the body is not valid JSON: \(error)"]
            }
        }
        let findings = validator.validate(body, against: model.schema).filter { $0.severity == .error }
        if !findings.isEmpty {
            return findings.map { "\(Self.field($0.pointer)): \($0.message)" }
        }
        if let error = model.decodeError(Data(body.serializedBytes()), settings: spec.decoder),
            let finding = DecodeVerdict.diagnostic(for: error, body: body, model: model.name)
        {
            return ["\(Self.field(finding.pointer)): \(finding.message)"]
        }
        request.json = body
        return []
    }

    /// `title`, `location/city`, or `body` for the whole document.
    static func field(_ pointer: JSONPointer) -> String {
        pointer.tokens.isEmpty ? "body" : pointer.tokens.joined(separator: ".")
    }

    /// The JSON value a parameter's text stands for under its schema (`"42"` → `42` for an integer).
    static func coerce(_ text: String, to schema: Schema) -> JSONValue {
        switch schema {
        case .nullable(let wrapped): return coerce(text, to: wrapped)
        case .integer:
            if let int = Int(text) { return .integer(int) }
        case .number, .decimal:
            if Double(text) != nil, (try? JSONParser().parse(text))?.numberValue != nil {
                return .number(JSONNumber(uncheckedLiteral: text))
            }
        case .boolean:
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        case .array(let array):
            return .array(text.split(separator: ",").map { coerce(String($0), to: array.items) })
        default: break
        }
        return .string(text)
    }
}
