import Foundation
import UnderstudyCore

/// Removes credentials from everything the checker prints.
///
/// Known secrets (the token, the API key, passwords, tokens obtained while logging in) are replaced by
/// the name of an environment variable, so a `curl` line stays runnable: `Bearer $UNDERSTUDY_TOKEN`.
/// Anything else that looks like a JWT is replaced by `<redacted-jwt>`: a server may echo a token in a
/// body the checker quotes.
///
/// ```swift
/// let redactor = Redactor(secrets: [("s3cr3t-token-value", "UNDERSTUDY_TOKEN")])
/// redactor.redact("Bearer s3cr3t-token-value")   // "Bearer $UNDERSTUDY_TOKEN"
/// ```
public struct Redactor: Sendable {
    private var secrets: [(value: String, placeholder: String)]

    /// - Parameter secrets: each secret value and the environment variable name that stands for it.
    public init(secrets: [(String, String)] = []) {
        self.secrets = []
        for (value, name) in secrets { add(value, as: name) }
    }

    /// Adds a secret; values shorter than 4 characters are ignored (they would mangle ordinary text).
    public mutating func add(_ value: String, as name: String) {
        guard value.count >= 4, !secrets.contains(where: { $0.value == value }) else { return }
        secrets.append((value, "$" + name))
        // Longest first, so a secret containing another is replaced whole.
        secrets.sort { $0.value.count > $1.value.count }
    }

    /// `text` with every secret and every JWT-looking string replaced.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret.value) {
            result = result.replacingOccurrences(of: secret.value, with: secret.placeholder)
        }
        return Self.redactJWTs(result)
    }

    /// The finding with every text field redacted.
    public func redact(_ diagnostic: Diagnostic) -> Diagnostic {
        var copy = diagnostic
        // A server can echo a secret anywhere, a member name included.
        copy.pointer = JSONPointer(tokens: diagnostic.pointer.tokens.map(redact))
        copy.endpoint = diagnostic.endpoint.map(redact)
        copy.examples = diagnostic.examples.map(redact)
        copy.message = redact(diagnostic.message)
        copy.expected = diagnostic.expected.map(redact)
        copy.found = diagnostic.found.map(redact)
        copy.context = diagnostic.context.mapValues(redact)
        return copy
    }

    /// Replaces `eyJ<base64url>.<base64url>.<base64url>` runs (a JWT's header always starts with `{"`).
    static func redactJWTs(_ text: String) -> String {
        guard text.contains("eyJ") else { return text }
        var output = ""
        var rest = Substring(text)
        while let start = rest.range(of: "eyJ") {
            output += rest[..<start.lowerBound]
            var end = start.lowerBound
            var dots = 0
            while end < rest.endIndex, Self.isTokenCharacter(rest[end]) {
                if rest[end] == "." { dots += 1 }
                end = rest.index(after: end)
            }
            output += dots == 2 ? "<redacted-jwt>" : String(rest[start.lowerBound..<end])
            rest = rest[end...]
            if end == start.lowerBound { break }
        }
        return output + rest
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
    }
}

/// A `curl` command that reproduces a request, secrets redacted.
public enum Curl {
    /// `curl -sS -X POST 'https://host/path' -H 'Authorization: Bearer $UNDERSTUDY_TOKEN' --data-raw '{...}'`.
    ///
    /// Header values holding a placeholder are double-quoted so the shell expands it.
    public static func command(for request: OutgoingRequest, redactor: Redactor) -> String {
        var parts = ["curl -sS -i"]
        if request.method != .get || request.body != nil { parts.append("-X \(request.method.rawValue)") }
        parts.append(shellQuote(redactor.redact(request.url)))
        for field in request.headers {
            let header = redactor.redact("\(field.name): \(field.value)")
            parts.append("-H " + (header.contains("$UNDERSTUDY_") ? doubleQuote(header) : shellQuote(header)))
        }
        if let body = request.body, !body.isEmpty {
            let text = String(decoding: body.prefix(4096), as: UTF8.self)
            let redacted = redactor.redact(text)
            parts.append("--data-raw " + (redacted.contains("$UNDERSTUDY_") ? doubleQuote(redacted) : shellQuote(redacted)))
        }
        return parts.joined(separator: " ")
    }

    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Double quotes keep the `$UNDERSTUDY_*` placeholders expandable; every other `$`, quote, backslash
    /// and backtick is escaped.
    static func doubleQuote(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"", "\\", "`", "$": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return "\"" + result.replacingOccurrences(of: "\\$UNDERSTUDY_", with: "$UNDERSTUDY_") + "\""
    }
}
