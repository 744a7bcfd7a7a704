extension JSONValue {
    /// The value a JSON Pointer points at (object members by key, array elements by index); setting one
    /// replaces it, creating the objects on the way that are missing. Setting under a scalar does nothing.
    ///
    /// ```swift
    /// var page: JSONValue = ["total": 0]
    /// page[pointer: "/data"] = [["id": 1]]
    /// ```
    public subscript(pointer pointer: JSONPointer) -> JSONValue? {
        get {
            var current: JSONValue? = self
            for token in pointer.tokens {
                switch current {
                case .object(let members)?: current = members[token]
                case .array(let elements)?:
                    guard let index = Int(token), elements.indices.contains(index) else { return nil }
                    current = elements[index]
                default: return nil
                }
            }
            return current
        }
        set {
            set(newValue, at: pointer.tokens[...])
        }
    }

    private mutating func set(_ value: JSONValue?, at tokens: ArraySlice<String>) {
        guard let token = tokens.first else {
            self = value ?? .null
            return
        }
        switch self {
        case .object(var members):
            if tokens.count == 1 {
                members[token] = value
            } else {
                var child = members[token] ?? .object([:])
                child.set(value, at: tokens.dropFirst())
                members[token] = child
            }
            self = .object(members)
        case .array(var elements):
            guard let index = Int(token), elements.indices.contains(index) else { return }
            if tokens.count == 1, value == nil {
                elements.remove(at: index)
            } else {
                elements[index].set(value, at: tokens.dropFirst())
            }
            self = .array(elements)
        default:
            return
        }
    }
}
