extension ModelReference {
    /// The schema verdict on a body of this model, by the schema engine: against the document's own JSON Schema where
    /// the model has one (an imported document), else the schema inferred from the Swift type, as its canonical form
    /// (``SchemaDialect/understudy``).
    ///
    /// Members no schema declares are notes (a decoder ignores them); a `format` mismatch is a warning unless the spec
    /// asserts formats (``APISpec/assertsFormats``).
    /// - Parameters:
    ///   - direction: a request (`readOnly` members not required) or a response (`writeOnly` ones not required).
    ///   - mergingRepeats: one finding per rule and location, array indices collapsed, with its occurrences.
    package func findings(
        _ body: JSONValue, in spec: APISpec, direction: MessageDirection, mergingRepeats: Bool = false
    ) -> [Diagnostic] {
        spec.findings(body, schema: schema, documentSchema: documentSchema, direction: direction, mergingRepeats: mergingRepeats)
    }
}

extension Parameter {
    /// The schema verdict on a parameter's value (its text read as ``schema`` says), as ``ModelReference`` gives one
    /// on a body: by the document's own schema where the parameter has one. Its `format` is asserted: a server parses
    /// a parameter's text (a `uuid` path segment, an `int64` id, a `date`) and refuses what it cannot read.
    package func findings(_ value: JSONValue, in spec: APISpec) -> [Diagnostic] {
        spec.findings(value, schema: schema, documentSchema: documentSchema, direction: .request, formats: .assertion)
    }
}

extension APISpec {
    /// The schema engine's verdict on `value`: against `documentSchema`, an imported document's own, where there is
    /// one (formats asserted as `formats`, else ``assertsFormats``, says), else against the Swift model's `schema`.
    fileprivate func findings(
        _ value: JSONValue, schema: Schema, documentSchema: CompiledSchema?, direction: MessageDirection,
        formats: SchemaValidator.Configuration.FormatHandling? = nil, mergingRepeats: Bool = false
    ) -> [Diagnostic] {
        guard let documentSchema else {
            return Validator(spec: self, direction: direction)
                .validate(value, against: schema, mergingRepeats: mergingRepeats)
        }
        let configuration = SchemaValidator.Configuration(
            direction: direction, formats: formats ?? (assertsFormats ? .assertion : .annotation),
            undeclaredMembers: true, mergingRepeats: mergingRepeats)
        return SchemaValidator(configuration).validate(value, against: documentSchema)
    }
}
