import UnderstudyCore

/// The requests `check` sends beyond the app's own: ones a conforming server must refuse
/// (``NegativeProbes``) and lists whose rows must do what the query asked (``SemanticProbes``).
///
/// They run after the reads (so path parameters are known), only on endpoints the run can call, and
/// `--no-probes` turns them off. A probe is not the app's request: it is not counted as a call of the
/// endpoint, and its answer is judged by the probe, not by the read contract.
enum Probes {
    static func run(_ session: CheckSession) async {
        await NegativeProbes(session: session).run()
        await SemanticProbes(session: session).run()
    }
}

extension CheckSession {
    /// Sends a probe and records what `judge` finds in the answer (or the transport failure), each finding
    /// tagged with the endpoint and the request's curl line.
    /// A write that would change what the run did not make is not sent (``WritePolicy``).
    /// - Parameter unknown: the path value the probe made up to name nothing, if any.
    /// - Returns: the answer, inflated, when one arrived.
    @discardableResult
    func probe(
        _ endpoint: AnyEndpoint, _ request: OutgoingRequest, unknown: String? = nil,
        judge: (RecordedResponse) -> [Diagnostic]
    ) async -> RecordedResponse? {
        if Task.isCancelled { return nil }
        if let reason = refusal(of: request, for: endpoint, unknown: unknown) {
            journal(request, endpoint, probe: true, withheld: reason)
            return nil
        }
        let entry = journal(request, endpoint, probe: true)
        let exchange = await transport.send(request).inflated(limit: options.transport.maximumBodyBytes)
        answered(entry, exchange)
        if let status = exchange.response?.status {
            state.withLock { $0.elicited[endpoint.id, default: []].insert(status) }
        }
        let findings: [Diagnostic]
        switch exchange.outcome {
        case .failure(let failure): findings = [ResponseInspector.diagnostic(for: failure)]
        case .response(let response): findings = judge(response)
        }
        add(
            findings.map { finding in
                var finding = finding
                finding.endpoint = endpoint.id
                return finding
            }, request: request)
        return exchange.response
    }
}
