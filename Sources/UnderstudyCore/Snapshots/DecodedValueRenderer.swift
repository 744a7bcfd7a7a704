import Foundation

/// Writes a decoded Swift value as stable text for decoding snapshots: the same value gives the same
/// text on every run and machine (dictionary entries sorted, dates in UTC with milliseconds,
/// decimals exactly, module names dropped).
///
/// ```swift
/// let text = DecodedValueRenderer.render(try JSONDecoder().decode(Badge.self, from: data))
/// // Badge(
/// //   id: "65a1…",
/// //   rarity: .rare,
/// //   earnedAt: nil
/// // )
/// ```
public enum DecodedValueRenderer {
    public static func render(_ value: Any) -> String {
        var output = ""
        write(value, indent: 0, to: &output)
        return output + "\n"
    }

    private static func write(_ value: Any, indent: Int, to output: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch value {
        case let string as String: output += JSONValue.string(string).serialized()
        case let date as Date: output += "Date(\(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))))"
        case let decimal as Decimal: output += "Decimal(\(decimal))"
        case let uuid as UUID: output += "UUID(\(uuid.uuidString))"
        case let url as URL: output += "URL(\(url.absoluteString))"
        case let json as JSONValue: output += "JSONValue(\(json.serialized()))"
        case let bool as Bool: output += bool ? "true" : "false"
        case let number as any BinaryInteger: output += "\(number)"
        case let number as Double: output += "\(number)"
        case let number as Float: output += "\(number)"
        default:
            let mirror = Mirror(reflecting: value)
            let name = SchemaInference.name(of: type(of: value))
            switch mirror.displayStyle {
            case .optional:
                if let wrapped = mirror.children.first { write(wrapped.value, indent: indent, to: &output) } else { output += "nil" }
            case .collection, .set:
                var elements = mirror.children.map { child -> String in
                    var text = ""
                    write(child.value, indent: indent + 1, to: &text)
                    return text
                }
                if mirror.displayStyle == .set { elements.sort() }
                output += elements.isEmpty ? "[]" : "[\n" + elements.map { pad + $0 + ",\n" }.joined() + closing + "]"
            case .dictionary:
                let entries = mirror.children.map { child -> (String, String) in
                    let pair = Array(Mirror(reflecting: child.value).children)
                    var key = ""
                    var text = ""
                    write(pair[0].value, indent: indent + 1, to: &key)
                    write(pair[1].value, indent: indent + 1, to: &text)
                    return (key, text)
                }.sorted { $0.0 < $1.0 }
                output += entries.isEmpty ? "[:]" : "[\n" + entries.map { pad + $0.0 + ": " + $0.1 + ",\n" }.joined() + closing + "]"
            case .enum:
                if let payload = mirror.children.first {
                    var text = ""
                    write(payload.value, indent: indent, to: &text)
                    output += ".\(payload.label ?? "case")(\(text))"
                } else {
                    output += ".\(value)"
                }
            case .struct, .class, .tuple:
                let fields = mirror.children.map { child -> String in
                    var text = ""
                    write(child.value, indent: indent + 1, to: &text)
                    return pad + (child.label ?? "_") + ": " + text
                }
                output += fields.isEmpty ? "\(name)()" : "\(name)(\n" + fields.joined(separator: ",\n") + "\n" + closing + ")"
            default:
                output += "\(value)"
            }
        }
    }
}
