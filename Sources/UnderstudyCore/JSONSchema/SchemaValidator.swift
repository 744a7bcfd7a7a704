/// Validates JSON values against compiled JSON Schema (2020-12 or OpenAPI 3.0) schemas, reporting every violation.
///
/// Each violation is one ``Diagnostic``: severity `.error`, the instance location as `pointer`, a one-sentence
/// message ("expected string, found integer 12"), expected and found texts, and the keyword's absolute location in
/// `context["schema"]`. A value is valid when no finding is an error: format mismatches in annotation mode are
/// warnings, undeclared members notes.
///
/// ```swift
/// let registry = try SchemaRegistry(dialect: .openAPI30)
///     .adding(document: spec, uri: "file:///api.json", schemaRoots: ["/components/schemas/Pet"])
/// let validator = SchemaValidator(.init(direction: .request, undeclaredMembers: true))
/// for finding in validator.validate(body, against: registry.schema(at: "file:///api.json#/components/schemas/Pet")!) {
///     print(finding.summary)   // "/tags/0: expected string, found integer 12"
/// }
/// ```
public struct SchemaValidator: Sendable {
    /// How a validator reports.
    public struct Configuration: Sendable, Hashable {
        /// Whether `format` only annotates (mismatches are warnings) or asserts (mismatches are errors).
        public enum FormatHandling: Sendable, Hashable {
            case annotation
            case assertion
        }

        /// The message the value is, when it is one: a `required` property whose schema says `readOnly: true` is
        /// not required in a request, a `writeOnly: true` one not in a response (OpenAPI's rule). `nil` applies
        /// `required` as JSON Schema does.
        public var direction: MessageDirection?
        /// Format mismatches as warnings (JSON Schema's default) or errors. A metaschema with the format-assertion
        /// vocabulary asserts formats either way.
        public var formats: FormatHandling
        /// Whether a member no `properties`, `patternProperties`, `additionalProperties` or
        /// `unevaluatedProperties` evaluated, in an object whose schema declares `properties`, is a
        /// `schema.unknown-property` note (a decoder ignores it).
        public var undeclaredMembers: Bool
        /// One finding per rule and location with array indices collapsed, its occurrences counted, rather than
        /// one per element.
        public var mergingRepeats: Bool
        /// How many schemas deep evaluation goes (nested values, references, applicators) before it stops with a
        /// `schema.depth-limit` finding. Evaluation also stops, with the same finding, before the thread's stack
        /// runs low, whatever this says.
        public var maximumDepth: Int

        public init(
            direction: MessageDirection? = nil, formats: FormatHandling = .annotation, undeclaredMembers: Bool = false,
            mergingRepeats: Bool = false, maximumDepth: Int = 1_000
        ) {
            self.direction = direction
            self.formats = formats
            self.undeclaredMembers = undeclaredMembers
            self.mergingRepeats = mergingRepeats
            self.maximumDepth = maximumDepth
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Every finding about `value` against `schema`, errors, warnings and notes, in evaluation order.
    public func validate(_ value: JSONValue, against schema: CompiledSchema) -> [Diagnostic] {
        var evaluation = SchemaEvaluation(storage: schema.registry.storage, configuration: configuration, mode: .full)
        evaluation.run(schema.node, value)
        return evaluation.findings
    }

    /// Whether `value` satisfies `schema`: stops at the first error and builds no message.
    public func isValid(_ value: JSONValue, against schema: CompiledSchema) -> Bool {
        var evaluation = SchemaEvaluation(storage: schema.registry.storage, configuration: configuration, mode: .probe)
        return evaluation.run(schema.node, value)
    }
}
