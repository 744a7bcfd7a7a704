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
        guard let documentSchema else {
            return Validator(spec: spec, direction: direction)
                .validate(body, against: schema, mergingRepeats: mergingRepeats)
        }
        let configuration = SchemaValidator.Configuration(
            direction: direction, formats: spec.assertsFormats ? .assertion : .annotation, undeclaredMembers: true,
            mergingRepeats: mergingRepeats)
        return SchemaValidator(configuration).validate(body, against: documentSchema)
    }
}
