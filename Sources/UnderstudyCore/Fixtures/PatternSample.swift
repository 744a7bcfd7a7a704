/// Strings made to match a JSON Schema `pattern` (an ECMA-262 regular expression), for the values a fixture or a
/// request body needs when a document constrains a string only by its pattern (`^[A-Z]{3}-[0-9]{4}$`).
///
/// The pattern is read into a small tree (literals, classes, `\d` `\w` `\s` `.`, groups, alternatives,
/// quantifiers) and a string drawn from it; a repetition repeats at most three times more than its lower bound, so
/// samples stay short and readable. A positive lookahead's text is drawn in place, which meets the idiom of password rules
/// (`^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$` draws a lower-case letter, an upper-case one and a digit before the
/// rest). What the reading cannot draw from (a negative lookaround, a lookbehind, a back-reference) draws
/// nothing, and the caller keeps a sample only if ``RegularExpression`` matches it: a sample is a candidate,
/// never assumed right.
///
/// ```swift
/// var random = SeededRandom(seed: 7)
/// PatternSample(#"^[A-Z]{3}-\d{4}$"#)?.draw(using: &random)  // "QFT-0381"
/// ```
struct PatternSample {
    private indirect enum Node {
        case characters([Character])
        case excluding([Character])
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, minimum: Int, maximum: Int)
        /// An anchor, a boundary, a negative lookahead or a lookbehind: matches without drawing.
        case nothing
    }

    private let root: Node

    /// The pattern's tree; `nil` when it is not a pattern this reader understands.
    init?(_ pattern: String) {
        var parser = Parser(Array(pattern))
        guard let root = parser.alternatives(), parser.index == parser.text.count else { return nil }
        self.root = root
    }

    /// A string the pattern describes, or the start of one when the pattern's repetitions multiply past
    /// ``budget`` steps (`((a{0,3}){0,3}){0,3}…`): the caller's match check then refuses it.
    func draw(using random: inout SeededRandom) -> String {
        var text = ""
        var budget = Self.budget
        Self.draw(root, into: &text, random: &random, budget: &budget)
        return text
    }

    /// The steps one draw may take.
    static let budget = 10_000
    /// The groups one pattern may nest: deeper, it is not a pattern this reader draws from (nor reads recursively).
    static let maximumNesting = 32

    /// Readable characters a negated class or `.` draws from.
    private static let readable = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    private static func draw(_ node: Node, into text: inout String, random: inout SeededRandom, budget: inout Int) {
        guard budget > 0 else { return }
        budget -= 1
        switch node {
        case .characters(let choices): if !choices.isEmpty { text.append(random.pick(choices)) }
        case .excluding(let excluded):
            let choices = readable.filter { !excluded.contains($0) }
            if !choices.isEmpty { text.append(random.pick(choices)) }
        case .sequence(let nodes):
            for node in nodes where budget > 0 { draw(node, into: &text, random: &random, budget: &budget) }
        case .alternatives(let nodes): draw(random.pick(nodes), into: &text, random: &random, budget: &budget)
        case .repeated(let node, let minimum, let maximum):
            for _ in 0..<random.int(in: minimum...maximum) where budget > 0 {
                draw(node, into: &text, random: &random, budget: &budget)
            }
        case .nothing: break
        }
    }

    /// Reads the ECMA-262 syntax JSON Schema patterns use.
    private struct Parser {
        let text: [Character]
        var index = 0
        /// The groups open at `index`.
        var nesting = 0

        init(_ text: [Character]) { self.text = text }

        private var current: Character? { index < text.count ? text[index] : nil }

        /// `a|b|c`, up to a closing parenthesis or the end.
        mutating func alternatives() -> Node? {
            var branches: [Node] = []
            repeat {
                if current == "|" { index += 1 }
                guard let branch = sequence() else { return nil }
                branches.append(branch)
            } while current == "|"
            return branches.count == 1 ? branches[0] : .alternatives(branches)
        }

        private mutating func sequence() -> Node? {
            var nodes: [Node] = []
            while let character = current, character != "|", character != ")" {
                guard var atom = atom() else { return nil }
                if let (minimum, maximum) = quantifier() {
                    if current == "?" { index += 1 }  // lazy: the same strings
                    atom = .repeated(atom, minimum: minimum, maximum: maximum)
                }
                nodes.append(atom)
            }
            return .sequence(nodes)
        }

        private mutating func atom() -> Node? {
            guard let character = current else { return nil }
            index += 1
            switch character {
            case "^", "$": return .nothing
            case ".": return .excluding([])
            case "(":
                nesting += 1
                defer { nesting -= 1 }
                guard nesting <= PatternSample.maximumNesting else { return nil }
                var lookaround = false
                if current == "?" {
                    index += 1
                    switch current {
                    case ":", "=": index += 1  // a lookahead's text is drawn: see `init`
                    case "!":
                        index += 1
                        lookaround = true
                    case "<":
                        index += 1
                        if current == "=" || current == "!" {
                            index += 1
                            lookaround = true
                        } else {
                            // A named group: `(?<name>…)`.
                            while let letter = current, letter != ">" { index += 1 }
                            guard current == ">" else { return nil }
                            index += 1
                        }
                    default: return nil
                    }
                }
                guard let inner = alternatives(), current == ")" else { return nil }
                index += 1
                return lookaround ? .nothing : inner
            case "[": return characterClass()
            case "\\": return escape(inClass: false).map { $0.node }
            case "*", "+", "?", ")": return nil
            default: return .characters([character])
            }
        }

        /// `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`: the repetitions drawn from.
        private mutating func quantifier() -> (Int, Int)? {
            switch current {
            case "?":
                index += 1
                return (0, 1)
            case "*":
                index += 1
                return (0, 3)
            case "+":
                index += 1
                return (1, 4)
            case "{":
                let start = index
                index += 1
                let lower = number()
                var upper = lower
                if current == "," {
                    index += 1
                    upper = number() ?? lower.map { $0 + 3 }
                }
                guard let lower, let upper, current == "}", lower <= upper, upper <= 1_000 else {
                    index = start
                    return nil
                }
                index += 1
                return (lower, min(upper, lower + 3))
            default: return nil
            }
        }

        private mutating func number() -> Int? {
            var digits = ""
            while let character = current, character.isASCII, character.isNumber {
                digits.append(character)
                index += 1
            }
            return Int(digits)
        }

        /// `[a-z0-9_]`, `[^,]`.
        private mutating func characterClass() -> Node? {
            var negated = false
            if current == "^" {
                negated = true
                index += 1
            }
            var members: [Character] = []
            while let character = current, character != "]" {
                index += 1
                var lower: Character
                if character == "\\" {
                    guard let escaped = escape(inClass: true) else { return nil }
                    guard let single = escaped.single else {
                        members += escaped.members
                        continue
                    }
                    lower = single
                } else {
                    lower = character
                }
                if current == "-", index + 1 < text.count, text[index + 1] != "]" {
                    index += 1
                    var upper = text[index]
                    index += 1
                    if upper == "\\" {
                        guard let single = escape(inClass: true)?.single else { return nil }
                        upper = single
                    }
                    guard let from = lower.unicodeScalars.first?.value, let to = upper.unicodeScalars.first?.value,
                        from <= to, to - from < 0x3000
                    else { return nil }
                    members += (from...to).compactMap { Unicode.Scalar($0).map(Character.init) }
                } else {
                    members.append(lower)
                }
            }
            guard current == "]" else { return nil }
            index += 1
            return negated ? .excluding(members) : .characters(members)
        }

        /// What follows a backslash: a class (`\d`), a character (`\.`, `\u00e9`), or an assertion (`\b`).
        private mutating func escape(inClass: Bool) -> (node: Node, members: [Character], single: Character?)? {
            guard let character = current else { return nil }
            index += 1
            let digits = Array("0123456789")
            let word = Self.letters + digits + ["_"]
            switch character {
            case "d": return (.characters(digits), digits, nil)
            case "w": return (.characters(word), word, nil)
            case "s": return (.characters([" "]), [" ", "\t", "\n"], nil)
            case "D": return (.excluding(digits), [], nil)
            case "W": return (.characters(["-"]), [], nil)
            case "S": return (.excluding([]), [], nil)
            case "b", "B": return inClass ? (.characters(["\u{8}"]), [], "\u{8}") : (.nothing, [], nil)
            case "n": return (.characters(["\n"]), [], "\n")
            case "t": return (.characters(["\t"]), [], "\t")
            case "r": return (.characters(["\r"]), [], "\r")
            case "c":
                // A control character: `\cC` is U+0003, the letter's code modulo 32.
                guard let letter = current, let code = letter.asciiValue, letter.isLetter else { return nil }
                index += 1
                let control = Character(Unicode.Scalar(code % 32))
                return (.characters([control]), [], control)
            case "u", "x":
                let count = character == "u" ? 4 : 2
                guard index + count <= text.count, let value = UInt32(String(text[index..<index + count]), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { return nil }
                index += count
                return (.characters([Character(scalar)]), [], Character(scalar))
            case _ where character.isNumber: return nil  // a back-reference
            default: return (.characters([character]), [], character)
            }
        }

        private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    }
}
