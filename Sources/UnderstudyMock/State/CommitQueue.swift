import UnderstudyCore

/// Group commit: writes that arrive while a commit is being made durable wait, and the first of them then runs
/// them all and makes them durable in one commit, so a durable write costs one `fsync` (or one database round
/// trip) shared by every write that queued behind it. Each write returns only once its commit is durable.
///
/// There is no committing thread: the write that finds no commit running leads one (of every write waiting,
/// its own among them) and, once it is durable, hands the lead to the first write that arrived meanwhile.
///
/// ```swift
/// let queue = CommitQueue<Job>()
/// try await queue.submit(job) { jobs in try database.commit(jobs) }
/// ```
final class CommitQueue<Job: Sendable>: Sendable {
    private struct Waiting: Sendable {
        var job: Job
        /// `nil` for the job of the write that leads the commit.
        var waiter: CheckedContinuation<Bool, any Error>?
    }

    private let state = Locked<(leading: Bool, waiting: [Waiting])>((false, []))

    /// The writes waiting for a commit (for tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `job` in the next commit; returns once that commit is durable.
    /// - Parameter commit: runs the jobs it is given, in the order they arrived, and makes them durable in one
    ///   commit; returns each job's own error (`nil` when it succeeded). Called for one commit at a time.
    /// - Throws: the job's own error, or the commit's (then every job of that commit failed).
    func submit(_ job: Job, commit: ([Job]) async throws -> [(any Error)?]) async throws {
        let leads = try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Bool, any Error>) in
            let leads = state.withLock { state in
                state.waiting.append(Waiting(job: job, waiter: state.leading ? waiter : nil))
                defer { state.leading = true }
                return !state.leading
            }
            if leads { waiter.resume(returning: true) }
        }
        guard leads else { return }
        let (waiters, outcome) = await commitWaiting(commit)
        // The next commit starts before this one's writes return.
        let next = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.leading = false
                return nil as CheckedContinuation<Bool, any Error>?
            }
            defer { state.waiting[0].waiter = nil }
            return state.waiting[0].waiter
        }
        next?.resume(returning: true)
        var own: (any Error)?
        for (index, waiter) in waiters.enumerated() {
            let failure: (any Error)?
            switch outcome {
            case .success(let failures): failure = failures[index]
            case .failure(let error): failure = error
            }
            guard let waiter else {
                own = failure
                continue
            }
            if let failure { waiter.resume(throwing: failure) } else { waiter.resume(returning: false) }
        }
        if let own { throw own }
    }

    /// Takes every write waiting and commits them. The jobs are released before this returns, before any of
    /// their writers resumes (a job may borrow its writer's closure, `withoutActuallyEscaping`).
    private func commitWaiting(
        _ commit: ([Job]) async throws -> [(any Error)?]
    ) async -> ([CheckedContinuation<Bool, any Error>?], Result<[(any Error)?], any Error>) {
        let taken = state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let waiters = taken.map(\.waiter)
        do {
            return (waiters, .success(try await commit(taken.map(\.job))))
        } catch {
            return (waiters, .failure(error))
        }
    }
}
