import Synchronization

/// Stands in for `Task.sleep` between retries: records each delay and returns at once.
final class SleepRecorder: Sendable {
    private let delays = Mutex<[Duration]>([])

    /// The delays asked for so far, in order.
    var recorded: [Duration] { delays.withLock { $0 } }

    func record(_ delay: Duration) {
        delays.withLock { $0.append(delay) }
    }
}
