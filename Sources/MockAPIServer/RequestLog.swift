import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line per request on stderr, written off the request threads.
///
/// Handing a line to a serial queue never blocks a libmicrohttpd callback, even when stderr is
/// a slow pipe; past `maxPending` lines waiting, lines are dropped and counted instead.
public final class RequestLog: Sendable {
    private let queue = DispatchQueue(label: "mockapi.request-log")
    private let pending = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let maxPending: Int
    private let fileDescriptor: Int32

    public init(fileDescriptor: Int32 = 2, maxPending: Int = 10_000) {
        self.fileDescriptor = fileDescriptor
        self.maxPending = maxPending
    }

    /// `GET /v1/users/self 200 current_user 0.21ms`
    func request(method: String, path: String, status: Int, contract: String?, nanoseconds: UInt64) {
        let milliseconds = Double(nanoseconds) / 1_000_000
        let rounded = (milliseconds * 100).rounded() / 100
        write("\(method) \(path) \(status) \(contract ?? "-") \(rounded)ms")
    }

    public func write(_ line: String) {
        guard pending.add(1, ordering: .relaxed).newValue <= maxPending else {
            pending.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        let descriptor = fileDescriptor
        queue.async { [self] in
            var text = line
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 { text = "(\(lost) log lines dropped: stderr was not keeping up)\n" + text }
            text += "\n"
            text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
            pending.subtract(1, ordering: .relaxed)
        }
    }

    /// Waits until every accepted line is written.
    public func flush() { queue.sync {} }
}

/// Writes every byte unless the descriptor fails.
private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
    }
}
