/// What the applied schemas evaluated at one instance location: the annotations `unevaluatedProperties` and
/// `unevaluatedItems` (and the undeclared-member notes) read.
///
/// Collected only when a schema in play needs them; empty sets do not allocate, so carrying one costs nothing.
struct Annotations {
    /// Members evaluated by `properties`, `patternProperties`, `additionalProperties` or `unevaluatedProperties`.
    var properties: Set<String> = []
    /// Whether every member is evaluated (`additionalProperties` or `unevaluatedProperties` applied).
    var allProperties = false
    /// Whether an applied schema has `properties`: the object has a declared shape.
    var declaresProperties = false
    /// Elements `0..<itemsPrefix` are evaluated (`prefixItems`).
    var itemsPrefix = 0
    /// Whether every element is evaluated (`items`, `unevaluatedItems`).
    var allItems = false
    /// Elements `contains` matched.
    var items: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        if !other.properties.isEmpty { properties.formUnion(other.properties) }
        allProperties = allProperties || other.allProperties
        declaresProperties = declaresProperties || other.declaresProperties
        itemsPrefix = max(itemsPrefix, other.itemsPrefix)
        allItems = allItems || other.allItems
        if !other.items.isEmpty { items.formUnion(other.items) }
    }

    func isEvaluated(property name: String) -> Bool { allProperties || properties.contains(name) }

    func isEvaluated(item index: Int) -> Bool { allItems || index < itemsPrefix || items.contains(index) }
}
