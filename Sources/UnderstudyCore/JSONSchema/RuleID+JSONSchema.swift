extension RuleID {
    // JSON Schema keywords the model-based validator has no rule for.
    public static let constMismatch: RuleID = "schema.const"
    public static let notMultipleOf: RuleID = "schema.multiple-of"
    public static let duplicateItems: RuleID = "schema.unique-items"
    public static let matchesNot: RuleID = "schema.not"
    public static let containsCount: RuleID = "schema.contains"
    public static let tooFewProperties: RuleID = "schema.min-properties"
    public static let tooManyProperties: RuleID = "schema.max-properties"
    public static let dependentRequiredMissing: RuleID = "schema.dependent-required"
    public static let invalidPropertyName: RuleID = "schema.property-names"
    public static let unevaluatedProperty: RuleID = "schema.unevaluated-property"
    public static let unevaluatedItem: RuleID = "schema.unevaluated-item"
    public static let falseSchema: RuleID = "schema.false"
    public static let noAnyOfAlternative: RuleID = "schema.any-of"
    /// The value or the schema nests deeper than the validator follows; validation stopped there.
    public static let depthLimit: RuleID = "schema.depth-limit"
}
