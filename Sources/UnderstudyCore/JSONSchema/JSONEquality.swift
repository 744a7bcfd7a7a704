/// Equality as JSON Schema's `enum`, `const` and `uniqueItems` mean it: numbers by value (`1 == 1.0 == 1e0`),
/// objects regardless of member order, strings code point by code point.
///
/// `JSONValue`'s own `==` compares number literals, so `1` and `1.0` differ there. Both functions walk with an
/// explicit stack: a value nested 100,000 deep costs heap, not the thread's stack.
enum JSONEquality {
    /// Whether `lhs` and `rhs` are the same JSON value.
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.null, .null): continue
            case (.bool(let a), .bool(let b)): guard a == b else { return false }
            case (.string(let a), .string(let b)): guard a.utf8.elementsEqual(b.utf8) else { return false }
            case (.number(let a), .number(let b)): guard numbersEqual(a, b) else { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                for (key, value) in a {
                    guard let other = b[key] else { return false }
                    pending.append((value, other))
                }
            default: return false
            }
        }
        return true
    }

    /// Whether two numbers have the same value, however they are written.
    static func numbersEqual(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Bool {
        if lhs.literal == rhs.literal { return true }
        guard let left = ExactDecimal(lhs), let right = ExactDecimal(rhs) else { return false }
        return left == right
    }

    /// A hash consistent with ``equal(_:_:)``: equal values hash alike (object members in key order, numbers by
    /// their exact value).
    static func hash(_ value: JSONValue) -> Int {
        var hasher = Hasher()
        var pending: [JSONValue] = [value]
        while let current = pending.popLast() {
            switch current {
            case .null: hasher.combine(0)
            case .bool(let bool): hasher.combine(bool ? 1 : 2)
            case .string(let string):
                hasher.combine(3)
                for byte in string.utf8 { hasher.combine(byte) }
            case .number(let number):
                hasher.combine(4)
                if let exact = ExactDecimal(number) { hasher.combine(exact) } else { hasher.combine(number.literal) }
            case .array(let elements):
                hasher.combine(5)
                hasher.combine(elements.count)
                pending.append(contentsOf: elements)
            case .object(let members):
                // Keys in sorted order, so member order does not matter; the values follow on the stack.
                hasher.combine(6)
                hasher.combine(members.count)
                for key in members.keys.sorted() {
                    hasher.combine(key)
                    if let member = members[key] { pending.append(member) }
                }
            }
        }
        return hasher.finalize()
    }
}
