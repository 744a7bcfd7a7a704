/// Readable, module-free names for Swift types, and the snake_case key conversion of `JSONEncoder`.
package enum TypeName {
    /// Formats `String(reflecting:)` output: drops module prefixes, writes `[T]`, `T?` and `[K: V]`.
    static func format(_ reflected: String) -> String {
        var parser = Parser(text: Array(reflected))
        return parser.parseType().rendered
    }

    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`: `myURLValue` → `my_url_value`.
    package static func snakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [String] = []
        var current = ""
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let isUpper = character.isUppercase
            if isUpper, !current.isEmpty {
                let previousIsUpper = characters[index - 1].isUppercase
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if !previousIsUpper || nextIsLower {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        words.append(current)
        return words.map { $0.lowercased() }.joined(separator: "_")
    }

    private struct Node {
        var path: [String]
        var arguments: [Node]

        var rendered: String {
            // The first component of a reflected name is always its module; private types add an
            // "(unknown context at $…)" component.
            let components = (path.count > 1 ? Array(path.dropFirst()) : path).filter { !$0.hasPrefix("(unknown context") }
            let name = components.joined(separator: ".")
            switch (name, arguments.count) {
            case ("Array", 1): return "[\(arguments[0].rendered)]"
            case ("Optional", 1): return "\(arguments[0].rendered)?"
            case ("Dictionary", 2): return "[\(arguments[0].rendered): \(arguments[1].rendered)]"
            case (_, 0): return name
            default: return name + "<" + arguments.map(\.rendered).joined(separator: ", ") + ">"
            }
        }
    }

    private struct Parser {
        let text: [Character]
        var index = 0

        init(text: [Character]) { self.text = text }

        mutating func parseType() -> Node {
            var path: [String] = []
            var current = ""
            var arguments: [Node] = []
            while index < text.count {
                let character = text[index]
                if character == "." {
                    path.append(current)
                    current = ""
                    index += 1
                } else if character == "<" {
                    index += 1
                    arguments.append(parseType())
                    while index < text.count && text[index] == "," {
                        index += 1
                        while index < text.count && text[index] == " " { index += 1 }
                        arguments.append(parseType())
                    }
                    if index < text.count && text[index] == ">" { index += 1 }
                } else if character == ">" || character == "," {
                    break
                } else {
                    current.append(character)
                    index += 1
                }
            }
            path.append(current)
            return Node(path: path, arguments: arguments)
        }
    }
}
