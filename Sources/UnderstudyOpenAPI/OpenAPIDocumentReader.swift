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

    /// Checks the document's version, then its structure with OpenAPIKit (3.0 or 3.1): what OpenAPIKit refuses is
    /// returned as a problem (its message names where), never a reason to refuse the whole document. The importer
    /// reads what it understands and ignores an invalid keyword (`items` given as an array, an `authorizationUrl`
    /// that is not a URL), as Prism and Schemathesis read such documents.
    /// - Returns: what OpenAPIKit refuses, empty when nothing.
    /// - Throws: ``OpenAPIImportError`` when the document has no `openapi` version or one other than 3.0 and 3.1.
    static func validate(_ document: JSONValue, source: String) throws -> [String] {
        try validate(document, source: source, maximumCheckedBytes: 2_000_000)
    }

    static func validate(_ document: JSONValue, source: String, maximumCheckedBytes: Int) throws -> [String] {
        guard let version = document["openapi"]?.stringValue else { throw OpenAPIImportError.notOpenAPI(source) }
        guard version.hasPrefix("3.1.") || version.hasPrefix("3.0.") else {
            throw OpenAPIImportError.unsupportedVersion(source, version)
        }
        let data = Data(document.serializedBytes())
        // OpenAPIKit decodes the whole document to check it: seconds a megabyte in a debug build. Above this size its
        // problems are not listed; what the importer cannot read is ignored all the same.
        guard data.count <= maximumCheckedBytes else {
            return [
                "not checked by OpenAPIKit: the document is \(String(format: "%.1f", Double(data.count) / 1e6)) MB, over "
                    + "\(String(format: "%.1f", Double(maximumCheckedBytes) / 1e6)) MB; the parts Understudy cannot read "
                    + "are ignored"
            ]
        }
        do {
            if version.hasPrefix("3.1.") {
                _ = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
            } else {
                _ = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
            }
            return []
        } catch let error as DecodingError {
            return [OpenAPIKit.OpenAPI.Error(from: error).localizedDescription]
        } catch {
            return ["\(error)"]
        }
    }
}
