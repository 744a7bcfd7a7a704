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

    /// Starts OpenAPIKit's check of the document's structure (3.0 or 3.1) on a thread of its own, so the import goes
    /// on beside it: what OpenAPIKit refuses is a problem (its message names where), never a reason to refuse the
    /// whole document. The importer reads what it understands and ignores an invalid keyword (`items` given as an
    /// array, an `authorizationUrl` that is not a URL), as Prism and Schemathesis read such documents.
    /// - Parameter then: called with the problems when the check ends, on its thread.
    /// - Returns: the check under way; ``StructureCheck/problems`` waits for what it refuses.
    static func startCheck(
        _ document: JSONValue, source: String, then deliver: (@Sendable ([String]) -> Void)?
    ) -> StructureCheck {
        StructureCheck {
            let problems = (try? validate(document, source: source, maximumCheckedBytes: 2_000_000)) ?? []
            deliver?(problems)
            return problems
        }
    }

    /// - Throws: ``OpenAPIImportError`` when the document has no `openapi` version or one other than 3.0 and 3.1.
    static func checkVersion(_ document: JSONValue, source: String) throws {
        guard let version = document["openapi"]?.stringValue else { throw OpenAPIImportError.notOpenAPI(source) }
        guard version.hasPrefix("3.1.") || version.hasPrefix("3.0.") else {
            throw OpenAPIImportError.unsupportedVersion(source, version)
        }
    }

    /// What OpenAPIKit refuses in the document, checked whole when it is at most `maximumCheckedBytes` long.
    static func validate(_ document: JSONValue, source: String, maximumCheckedBytes: Int) throws -> [String] {
        try checkVersion(document, source: source)
        let version = document["openapi"]?.stringValue ?? ""
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

/// Work on a thread of its own, whose result is waited for where it is needed: OpenAPIKit's check of a large
/// document takes as long as the rest of its import, and the two share no state.
final class StructureCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the thread before `done` is signalled, read only after waiting for it.
    private var result: [String] = []

    init(_ work: @escaping @Sendable () -> [String]) {
        let thread = Thread { [self] in
            result = work()
            done.signal()
        }
        // OpenAPIKit decodes recursively: as deep a document as the main thread reads must not exhaust this one.
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// What the check found, once it has ended.
    var problems: [String] {
        done.wait()
        done.signal()
        return result
    }
}
