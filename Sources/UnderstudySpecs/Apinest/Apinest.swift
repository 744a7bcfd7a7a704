import UnderstudyCore

/// The apinest backend (NestJS + MongoDB) shared by the ``Fitness`` and ``Achievements`` specs: their models,
/// the `{message, statusCode}` error envelope and the helpers both specs use.
///
/// The two guides describe one server, so a model that both name (such as ``Challenge``) is declared once here.
///
/// ```swift
/// let body = Apinest.errorBody(.notFound, ["Activity not found"])
/// // {"message": "Activity not found", "statusCode": 404}
/// ```
public enum Apinest {
    /// NestJS's error body as the fitness guide's `APIErrorResponse` reads it.
    static let errorEnvelope = ErrorEnvelope(APIErrorResponse.self) { status, messages in
        errorBody(status, messages)
    }

    /// The API's error body, `{"message": ..., "statusCode": N}`.
    ///
    /// Several messages are joined with `"; "` into the one string the app's `message: String` can hold
    /// (NestJS's own validation errors send an array there, which the app cannot decode; see the
    /// `error-message-shape` ambiguity). Without messages, the status's reason phrase is the message.
    /// - Parameters:
    ///   - status: the error status, repeated in `statusCode`.
    ///   - messages: what went wrong, the offending field first.
    /// - Returns: the body as JSON.
    public static func errorBody(_ status: HTTPStatus, _ messages: [String]) -> JSONValue {
        let message = messages.isEmpty ? HTTPStatus.reason(status) : messages.joined(separator: "; ")
        return ["message": .string(message), "statusCode": .integer(status.rawValue)]
    }

    /// The values of an activity's `visibility`, as the guide lists them for `GET /activities?visibility=`.
    static let visibilities = ["public", "friends"]

    /// The creation form's pickers: free strings on the wire (`activity-level-sport-values`), these values in the
    /// app, so fixtures and seeds use them.
    static func suggestSportAndLevel(in schema: inout ObjectSchema) {
        schema.suggest(["Football", "Basketball", "Running", "Cycling"], for: "sportType")
        schema.suggest(["Beginner", "Intermediate", "Advanced"], for: "level")
    }

    /// Restricts a string property of `schema` to `values`, through a `nullable` wrapper.
    static func allow(_ values: [String], for name: String, in schema: inout ObjectSchema) {
        schema.refine(name) { property in
            guard case .string(var constraints) = property else {
                preconditionFailure("allowed values set on the non-string property \(name)")
            }
            constraints.values = values
            property = .string(constraints)
        }
    }
}
