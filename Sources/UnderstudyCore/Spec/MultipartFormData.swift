/// Reading of `multipart/form-data` bodies (RFC 7578): the fields of an upload form, a file among them.
///
/// ```swift
/// let boundary = MultipartFormData.boundary(of: "multipart/form-data; boundary=x")   // "x"
/// let fields = MultipartFormData.fields(body, boundary: "x")   // [("caption", "Rex"), ("file", "…")]
/// ```
package enum MultipartFormData {
    /// The `boundary` parameter of a `multipart/form-data` content type (quoted or not); `nil` for another type, or
    /// one without a boundary.
    package static func boundary(of contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { String($0).trimmingSpaces }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Each part's field name and content (a file's bytes read as UTF-8, which validates as a string), in order;
    /// `nil` when the body is not made of parts delimited by `boundary` and ended by its close delimiter, or a part
    /// has no `form-data` name.
    package static func fields(_ body: [UInt8], boundary: String) -> [(name: String, value: String)]? {
        let delimiter = Array("--\(boundary)".utf8)
        let lineBreak = Array("\r\n".utf8)
        // The first delimiter may follow a preamble; every other one starts a line.
        guard var start = firstIndex(of: delimiter, in: body, from: 0) else { return nil }
        var fields: [(name: String, value: String)] = []
        while true {
            var cursor = start + delimiter.count
            if body[cursor...].starts(with: Array("--".utf8)) { return fields }
            // Transport padding, then the line break that ends the delimiter line.
            while cursor < body.count, body[cursor] == UInt8(ascii: " ") || body[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            guard body[cursor...].starts(with: lineBreak),
                let end = firstIndex(of: lineBreak + delimiter, in: body, from: cursor + 2)
            else { return nil }
            // Headers, an empty line, then the content; a part without headers starts with the empty line.
            let part = body[(cursor + 2)..<end]
            let headers: String
            let content: ArraySlice<UInt8>
            if part.starts(with: lineBreak) {
                (headers, content) = ("", part.dropFirst(2))
            } else if let index = firstIndex(of: lineBreak + lineBreak, in: body, from: part.startIndex),
                index + 4 <= end
            {
                (headers, content) = (String(decoding: part[..<index], as: UTF8.self), part[(index + 4)...])
            } else {
                return nil
            }
            guard let name = fieldName(in: headers) else { return nil }
            fields.append((name, String(decoding: content, as: UTF8.self)))
            start = end + 2
        }
    }

    /// The `name` of a part's `Content-Disposition: form-data; name="caption"` header.
    private static func fieldName(in headers: String) -> String? {
        for line in headers.split(separator: "\r\n") {
            let header = line.split(separator: ":", maxSplits: 1)
            guard header.count == 2, String(header[0]).trimmingSpaces.lowercased() == "content-disposition" else {
                continue
            }
            let parameters = header[1].split(separator: ";").map { String($0).trimmingSpaces }
            guard parameters.first?.lowercased() == "form-data" else { return nil }
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "name" else { continue }
                let value = pair[1].trimmingSpaces
                return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                    ? String(value.dropFirst().dropLast()) : value
            }
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
