import Foundation

/// Runs `body` on a thread of its own and waits for it without holding a thread of the test pool.
/// A client paced by the clock (a body sent in pieces) keeps its pace however long other tests
/// block the pool: paced with `Task.sleep`, one once waited 30 s for a thread, and the server,
/// rightly, closed the idle connection.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
