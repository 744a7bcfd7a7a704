/// A request the API sends to a server of its subscriber's: one of OpenAPI 3.1's `webhooks`, or a callback of an
/// operation. Its ``operation`` describes it as an endpoint does (the body the API sends, the answer it expects), with
/// the roles turned round: the app's side reads the request and writes the answer, so ``SpecDiff`` judges a change
/// to one as it judges a change to an endpoint's answer, and the other way.
///
/// Imported documents only: it is never served by a mock nor called by `check`.
public struct OutgoingCall: Sendable {
    /// The webhook's name (`newPet`), or the callback's (`onEvent`).
    public var name: String
    /// The call: its path is the webhook's name or the callback's runtime expression (`{$request.body#/callbackUrl}`).
    public var operation: AnyEndpoint

    package init(name: String, operation: AnyEndpoint) {
        self.name = name
        self.operation = operation
    }

    /// `newPet POST newPet`, `onEvent POST {$request.body#/callbackUrl}`: what a version of the document is matched by.
    public var id: String { "\(name) \(operation.id)" }

    var canonicalJSON: JSONValue {
        guard case .object(var object) = operation.canonicalJSON else { return .null }
        object["name"] = .string(name)
        return .object(object)
    }
}
