import Foundation

/// What `check --allow-writes` cannot learn from the document, declared with the spec: the explorer does the rest
/// (creates its own items, reads them back, updates them, runs their actions, deletes them and checks the 404).
///
/// A hint is an exception, not a flow: a body whose rules the document states in prose only (42's slots begin on a
/// quarter hour, at least half an hour ahead, for the token's user), or the item an action must act on because the
/// check's own item cannot take it (joining an activity one did not create).
///
/// ```swift
/// static let writeHints = WriteHints()
///     .body(createSlot) { session in
///         guard let me = await session.call(me)?["id"]?.numberValue?.intValue else { return nil }
///         return NewSlotRequest(userID: me, begin: …)
///     }
///     .acting([joinActivity.id, leaveActivity.id], because: "one joins another user's activity") { session in … }
/// ```
public struct WriteHints: Sendable {
    /// Makes a request body from what the run knows (its clock, its user, earlier answers); `nil` when it cannot.
    public typealias BodyMaker = @Sendable (any ScenarioSession) async -> JSONValue?
    /// Chooses the id of an item an action runs on; `nil` when the run knows none.
    public typealias ItemChooser = @Sendable (any ScenarioSession) async -> String?

    /// A chooser of items for actions, and why the check's own item will not do.
    public struct Target: Sendable {
        public let actions: [String]
        public let reason: String
        public let choose: ItemChooser
    }

    /// A flow no resource describes (an account signed up, refreshed and deleted), and the endpoints it alone calls.
    public struct Flow: Sendable {
        public let covers: Set<String>
        public let scenario: WriteScenario
    }

    public private(set) var bodies: [String: BodyMaker] = [:]
    public private(set) var targets: [Target] = []
    public private(set) var flows: [Flow] = []
    /// Writes that end the run's session (a logout): sent last, once.
    public private(set) var sessionEnders: [String] = []

    public init() {}

    /// The hints with `endpoint`'s body made by `make` instead of generated from its schema. A maker that cannot make
    /// one returns `nil` (saying why with ``ScenarioSession/skip(_:because:)``): the write is not sent.
    public func body(_ endpoint: String, _ make: @escaping BodyMaker) -> WriteHints {
        var copy = self
        copy.bodies[endpoint] = make
        return copy
    }

    /// The hints with a typed endpoint's body made by `make`, encoded as the wire writes it.
    public func body<Request: Encodable, Response>(
        _ endpoint: Endpoint<Request, Response>, _ make: @escaping @Sendable (any ScenarioSession) async -> Request?
    ) -> WriteHints {
        body(endpoint.id) { session in
            guard let request = await make(session) else { return nil }
            return try? session.spec.wireJSON(request)
        }
    }

    /// The hints with `actions` run, in this order, on the item `choose` names rather than on the check's own
    /// (which `reason` says cannot take them). The actions must leave the item as they found it: the item is not
    /// the check's.
    public func acting(_ actions: [String], because reason: String, on choose: @escaping ItemChooser) -> WriteHints {
        var copy = self
        copy.targets.append(Target(actions: actions, reason: reason, choose: choose))
        return copy
    }

    /// The hints with a flow that runs after the exploring, and calls `covers` alone: the explorer leaves them to it.
    public func flow(covering covers: [String], _ scenario: WriteScenario) -> WriteHints {
        var copy = self
        copy.flows.append(Flow(covers: Set(covers), scenario: scenario))
        return copy
    }

    /// The hints with writes that end the run's session, sent last (the explorer also takes a path ending in
    /// `logout`, `signout` or `revoke` for one).
    public func endingTheSession(_ ids: [String]) -> WriteHints {
        var copy = self
        copy.sessionEnders += ids
        return copy
    }

    /// Whether a flow calls `endpoint` alone.
    public func isLeftToAFlow(_ endpoint: String) -> Bool {
        flows.contains { $0.covers.contains(endpoint) }
    }

    /// The target of an action, if one is declared.
    public func target(of action: String) -> Target? {
        targets.first { $0.actions.contains(action) }
    }
}

extension APISpec {
    /// The same spec with what the explorer of `check --allow-writes` needs to be told (see ``WriteHints``).
    public func hinting(_ hints: WriteHints) -> APISpec {
        var copy = self
        copy.writeHints = hints
        return copy
    }
}
