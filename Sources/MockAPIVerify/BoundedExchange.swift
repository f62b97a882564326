public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `URLSession` delegate that answers an HTTP authentication challenge (a `401` or `407` with
/// `WWW-Authenticate: Basic …`) by declining it, so the exchange ends with that answer.
///
/// Why: on Linux, Foundation raises a challenge for such an answer, and when nobody answers it
/// (a session with no delegate) or the answer is "default handling" with no stored credential,
/// the task is neither retried nor completed, and its timeout no longer runs: the request waits
/// for ever. On Apple platforms the default handling already ends the exchange with the `401`,
/// and other challenges (a server's TLS certificate) must keep it, so only Linux declines.
///
/// A team's own session gets the same by passing one as its delegate:
///
///     let session = URLSession(configuration: .ephemeral, delegate: DecliningAuthChallenges(), delegateQueue: nil)
///     let transport = Transport.urlSession(session)
public final class DecliningAuthChallenges: NSObject, URLSessionDataDelegate, Sendable {
    /// Exchanges sent through ``BoundedExchange`` on a session with this delegate, by task
    /// identifier: their bodies are gathered here, so a declined `401` keeps its body.
    private let exchanges = Mutex<[Int: Gathering]>([:])

    private struct Gathering {
        var body = Data()
        /// Bytes kept at most; past it the exchange ends with what was kept, marked cut.
        var limit = Int.max
        /// `response`: the answer's head where the task may not have it yet (nil: the task's).
        var done: @Sendable (Data, (any Error)?, _ cut: Bool, _ response: URLResponse?) -> Void
    }

    /// Whether a 3xx answer is followed (URLSession's default) or is itself the answer.
    private let followsRedirects: Bool

    /// `followingRedirects: false` makes a 3xx the exchange's answer, as `verify-backend` needs:
    /// a contract that declares a redirect checks the redirect, not where it leads.
    public init(followingRedirects: Bool = true) {
        followsRedirects = followingRedirects
    }

    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(followsRedirects ? request : nil)
    }

    public func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    /// An answer that announces a body past its bound ends here, before any of it is read: the
    /// bytes reach `didReceive data` through a queue nothing holds back, so on a loaded machine
    /// hundreds of MB of a 2 GB answer were read before the bound below was seen.
    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let announced = response.expectedContentLength
        let refused = exchanges.withLock { exchanges -> Gathering? in
            guard let limit = exchanges[dataTask.taskIdentifier]?.limit, announced > Int64(limit) else { return nil }
            return exchanges.removeValue(forKey: dataTask.taskIdentifier)
        }
        guard let refused else { return completionHandler(.allow) }
        completionHandler(.cancel)
        refused.done(Data(), nil, true, response)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // A body past its bound (a backend answering 2 GB) is not held: the part kept ends the exchange.
        let full = exchanges.withLock { exchanges -> Gathering? in
            let id = dataTask.taskIdentifier
            guard let kept = exchanges[id]?.body.count, let limit = exchanges[id]?.limit else { return nil }
            if data.count <= limit - kept {
                exchanges[id]?.body.append(data)
                return nil
            }
            exchanges[id]?.body.append(data.prefix(limit - kept))
            return exchanges.removeValue(forKey: id)
        }
        guard let full else { return }
        dataTask.cancel()
        full.done(full.body, nil, true, nil)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let gathered = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        gathered.done(gathered.body, error, false, nil)
    }

    /// Gathers `task`'s body, at most `limit` bytes, and calls `done` when it completes or the
    /// body reaches the limit (call before the task is resumed).
    func gather(_ task: URLSessionTask, limit: Int = .max, done: @escaping @Sendable (Data, (any Error)?, _ cut: Bool, _ response: URLResponse?) -> Void) {
        exchanges.withLock { $0[task.taskIdentifier] = Gathering(limit: limit, done: done) }
    }
}

/// One request on a `URLSession`, with a deadline that always fires: whatever the server or
/// Foundation does (an authentication challenge left waiting, an answer trickling in), the
/// caller has an answer or an error after `seconds`.
public enum BoundedExchange {
    /// The answer to `request`, or `URLError(.timedOut)` once `seconds` have passed. When the
    /// task ended without completing because an authentication challenge was declined (or
    /// never answered), the status the server sent is the answer, with an empty body.
    public static func send(_ request: URLRequest, on session: URLSession, seconds: TimeInterval) async throws -> (Data, HTTPURLResponse) {
        let (body, response, _) = try await send(request, on: session, seconds: seconds, maxBodyBytes: .max)
        return (body, response)
    }

    /// The same, keeping at most `maxBodyBytes` of the body: a longer one ends the exchange there,
    /// and `cut` says so. The bound holds only on a session whose delegate is ``DecliningAuthChallenges``
    /// (another session's completion handler is given the whole body).
    public static func send(
        _ request: URLRequest, on session: URLSession, seconds: TimeInterval, maxBodyBytes: Int
    ) async throws -> (Data, HTTPURLResponse, cut: Bool) {
        let state = State()
        let (body, response) = try await exchange(request, on: session, seconds: seconds, maxBodyBytes: maxBodyBytes, state: state)
        return (body, response, state.wasCut)
    }

    private static func exchange(
        _ request: URLRequest, on session: URLSession, seconds: TimeInterval, maxBodyBytes: Int, state: State
    ) async throws -> (Data, HTTPURLResponse) {
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
                state.start(continuation)
                let task: URLSessionDataTask
                if let delegate = session.delegate as? DecliningAuthChallenges {
                    // Through the delegate, which keeps the body of a 401 whose challenge it declined.
                    task = session.dataTask(with: request)
                    delegate.gather(task, limit: maxBodyBytes) { body, error, cut, head in
                        if cut { state.markCut() }
                        state.finish(Self.result(body, head ?? state.response, error, challenged: state.challengedAnswer(body: body)))
                    }
                } else {
                    task = session.dataTask(with: request) { data, response, error in
                        state.finish(Self.result(data ?? Data(), response, error, challenged: state.challengedAnswer(body: Data())))
                    }
                }
                state.task(task)
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0.001, seconds)) {
                    // Reading the task's answer waits for the sessions' work queue, which one hostile
                    // answer (20,000 headers) held for seconds, and every deadline with it: at most 100 ms.
                    let found = AnswerSlot()
                    let asked = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        found.set(state.challengedAnswer())
                        asked.signal()
                    }
                    _ = asked.wait(timeout: .now() + 0.1)
                    state.finish(found.get() ?? .failure(URLError(.timedOut)))
                }
            }
        } onCancel: {
            state.finish(.failure(CancellationError()))
        }
    }

    private static func result(
        _ body: Data, _ response: URLResponse?, _ error: (any Error)?, challenged: Result<(Data, HTTPURLResponse), any Error>?
    ) -> Result<(Data, HTTPURLResponse), any Error> {
        if error == nil, let http = response as? HTTPURLResponse { return .success((body, http)) }
        return challenged ?? .failure(error ?? URLError(.badServerResponse))
    }

    /// One answer handed between queues.
    private final class AnswerSlot: @unchecked Sendable {
        // Why unchecked: the value is touched only under the lock.
        private let lock = NSLock()
        private var value: Result<(Data, HTTPURLResponse), any Error>?

        func set(_ answer: Result<(Data, HTTPURLResponse), any Error>?) { lock.withLock { value = answer } }
        func get() -> Result<(Data, HTTPURLResponse), any Error>? { lock.withLock { value } }
    }

    /// The continuation, resumed once, and the task, cancelled when the exchange ends otherwise.
    private final class State: Sendable {
        // Why unchecked boxes: URLSessionTask is not Sendable everywhere; it is touched only under the lock.
        private struct Box: @unchecked Sendable {
            var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
            var task: URLSessionTask?
            var result: Result<(Data, HTTPURLResponse), any Error>?
        }

        /// Why unchecked: the task is only cancelled from the other queue, which URLSessionTask allows.
        private struct UncheckedTask: @unchecked Sendable { var task: URLSessionTask }

        private let box = Mutex(Box())
        private let cut = Mutex(false)

        /// The body reached its bound and was cut there.
        var wasCut: Bool { cut.withLock { $0 } }
        func markCut() { cut.withLock { $0 = true } }

        func start(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) {
            let early = box.withLock { box -> Result<(Data, HTTPURLResponse), any Error>? in
                box.continuation = continuation
                return box.result // cancelled before it started
            }
            if let early { box.withLock { $0.continuation = nil }; continuation.resume(with: early) }
        }

        func task(_ task: URLSessionTask) {
            let finished = box.withLock { box in
                box.task = task
                return box.result != nil
            }
            if finished { task.cancel() }
        }

        var response: URLResponse? { box.withLock { $0.task?.response } }

        /// A 401 or 407 the server sent on a task that a challenge stopped.
        func challengedAnswer(body: Data = Data()) -> Result<(Data, HTTPURLResponse), any Error>? {
            let response = box.withLock { $0.task?.response as? HTTPURLResponse }
            guard let response, [401, 407].contains(response.statusCode) else { return nil }
            return .success((body, response))
        }

        func finish(_ result: Result<(Data, HTTPURLResponse), any Error>) {
            let (continuation, task) = box.withLock { box -> (CheckedContinuation<(Data, HTTPURLResponse), any Error>?, URLSessionTask?) in
                guard box.result == nil else { return (nil, nil) }
                box.result = result
                defer { box.continuation = nil }
                return (box.continuation, box.task)
            }
            guard let continuation else { return }
            // The answer first: on Linux, cancelling waits for the session's work queue, which a
            // hostile answer can keep busy for seconds (20,000 headers parsed one by one).
            continuation.resume(with: result)
            guard let task else { return }
            let unsent = UncheckedTask(task: task)
            DispatchQueue.global().async { if unsent.task.state == .running || unsent.task.state == .suspended { unsent.task.cancel() } }
        }
    }
}
