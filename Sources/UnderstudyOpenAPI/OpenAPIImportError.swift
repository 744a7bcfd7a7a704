/// Why a file could not be read as an OpenAPI document.
public struct OpenAPIImportError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Reason: Sendable, Hashable {
        case unreadable(String)
        case notOpenAPI
        case unsupportedVersion(String)
    }

    private let reason: Reason
    /// The file (or other source) the document came from.
    public let source: String

    private init(_ reason: Reason, source: String) {
        self.reason = reason
        self.source = source
    }

    /// The bytes are neither JSON nor YAML.
    public static func unreadable(_ source: String, _ detail: String) -> OpenAPIImportError {
        OpenAPIImportError(.unreadable(detail), source: source)
    }

    /// The document has no top-level `openapi` version.
    public static func notOpenAPI(_ source: String) -> OpenAPIImportError {
        OpenAPIImportError(.notOpenAPI, source: source)
    }

    /// The `openapi` version is neither 3.0.x nor 3.1.x (or the `swagger` version is not 2.0).
    public static func unsupportedVersion(_ source: String, _ version: String) -> OpenAPIImportError {
        OpenAPIImportError(.unsupportedVersion(version), source: source)
    }

    public var description: String {
        switch reason {
        case .unreadable(let detail): "\(source): not JSON or YAML: \(detail)"
        case .notOpenAPI: "\(source): not an OpenAPI document (no top-level \"openapi\" version)"
        case .unsupportedVersion(let version):
            "\(source): \(version.hasPrefix("Swagger") ? version : "OpenAPI version \(version)") is not supported; "
                + "expected OpenAPI 3.0.x or 3.1.x, or Swagger 2.0"
        }
    }
}
