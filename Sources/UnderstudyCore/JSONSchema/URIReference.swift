import Foundation

/// A URI reference split into its RFC 3986 parts, resolvable against a base: how `$id`, `$ref` and
/// `$dynamicRef` find schemas.
///
/// Parsing never fails (every string splits into parts); resolution follows RFC 3986 §5.2, dot segments
/// included, so `../b.json` against `http://x/a/c.json` is `http://x/b.json` and `#foo` against a `urn:` id keeps
/// the URN.
struct URIReference: Sendable, Hashable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        // A scheme is letters, digits, `+`, `-`, `.` before the first `:`, starting with a letter, and before any `/`.
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex {
            let candidate = rest[..<colon]
            if let first = candidate.first, first.isASCII, first.isLetter,
                candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
            {
                scheme = String(candidate)
                rest = rest[rest.index(after: colon)...]
            }
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Whether the reference has a scheme (an absolute URI, possibly with a fragment).
    var isAbsolute: Bool { scheme != nil }

    /// The reference without its fragment: the URI of the resource it names.
    var withoutFragment: URIReference {
        URIReference(scheme: scheme, authority: authority, path: path, query: query, fragment: nil)
    }

    /// This reference resolved against `base` (RFC 3986 §5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        if scheme != nil {
            return URIReference(
                scheme: scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                fragment: fragment)
        }
        if authority != nil {
            return URIReference(
                scheme: base.scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(
                scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
                fragment: fragment)
        }
        let merged: String
        if path.hasPrefix("/") {
            merged = path
        } else if base.authority != nil && base.path.isEmpty {
            merged = "/" + path
        } else if let slash = base.path.lastIndex(of: "/") {
            merged = String(base.path[...slash]) + path
        } else {
            merged = path
        }
        return URIReference(
            scheme: base.scheme, authority: base.authority, path: Self.removingDotSegments(merged), query: query,
            fragment: fragment)
    }

    /// RFC 3986 §5.2.4; paths without dot segments (a URN's) come back unchanged.
    private static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        let absolute = input.hasPrefix("/")
        if absolute { input = input.dropFirst() }
        let segments = input.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }

    var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// The fragment with percent-escapes decoded (`foo%22bar` → `foo"bar`), as JSON pointers and anchors compare.
    var decodedFragment: String? {
        guard let fragment else { return nil }
        return fragment.removingPercentEncoding ?? fragment
    }
}
