import Foundation
import OpenAPIKit
import OpenAPIKit30
import UnderstudyCore
import Yams

/// Reads OpenAPI documents from JSON or YAML bytes, and has OpenAPIKit check their structure.
enum OpenAPIDocumentReader {
    /// The document as a JSON tree (YAML is read through Yams).
    static func parse(_ bytes: [UInt8], source: String) throws -> JSONValue {
        let first = bytes.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
        }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            do {
                return try JSONParser().parse(bytes)
            } catch {
                throw OpenAPIImportError.unreadable(source, "\(error)")
            }
        }
        do {
            return try YAMLDecoder().decode(JSONValue.self, from: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw OpenAPIImportError.unreadable(source, "\(error)")
        }
    }

    /// Checks the document with OpenAPIKit (3.0 or 3.1), so that a broken document is reported
    /// with OpenAPIKit's message rather than read half-way.
    static func validate(_ document: JSONValue, source: String) throws {
        guard let version = document["openapi"]?.stringValue else { throw OpenAPIImportError.notOpenAPI(source) }
        let data = Data(document.serializedBytes())
        do {
            if version.hasPrefix("3.1.") {
                _ = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
            } else if version.hasPrefix("3.0.") {
                _ = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
            } else {
                throw OpenAPIImportError.unsupportedVersion(source, version)
            }
        } catch let error as OpenAPIImportError {
            throw error
        } catch let error as DecodingError {
            throw OpenAPIImportError.invalid(source, OpenAPIKit.OpenAPI.Error(from: error).localizedDescription)
        } catch {
            throw OpenAPIImportError.invalid(source, "\(error)")
        }
    }
}
