import Dispatch
import MockAPICore
import Synchronization
import SystemLibc

/// One line per request on stderr, formatted and written off the request threads.
///
/// A request thread only copies what the line needs (`RequestLogEntry`) and hands it to a
/// serial queue, which formats and writes it: a libmicrohttpd callback never waits for a slow
/// pipe, nor spends time building text. Past `maxPending` lines waiting, lines are dropped and
/// counted instead.
package final class RequestLog: Sendable {
    package let options: RequestLogOptions
    private let queue = DispatchQueue(label: "mockapi.request-log")
    private let pending = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let maxPending: Int
    private let fileDescriptor: Int32

    package init(fileDescriptor: Int32 = 2, maxPending: Int = 10_000, options: RequestLogOptions = RequestLogOptions()) {
        self.fileDescriptor = fileDescriptor
        self.maxPending = maxPending
        self.options = options
        tzset() // local time for the timestamps, read once rather than on the first line
    }

    /// Formats the entry on the log's queue.
    func request(_ entry: RequestLogEntry) {
        let options = options
        enqueue { RequestLogFormatter.line(entry, options: options) }
    }

    package func write(_ line: String) {
        enqueue { line }
    }

    private func enqueue(_ makeLine: @escaping @Sendable () -> String) {
        guard pending.add(1, ordering: .relaxed).newValue <= maxPending else {
            pending.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        let descriptor = fileDescriptor
        queue.async { [self] in
            var text = makeLine()
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 { text = droppedLine(lost) + "\n" + text }
            text += "\n"
            text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
            pending.subtract(1, ordering: .relaxed)
        }
    }

    /// Says lines were lost, in the log's own format (a JSON log stays all JSON).
    private func droppedLine(_ count: Int) -> String {
        let message = "\(count) log lines dropped: stderr was not keeping up"
        guard options.format == .json else { return "(\(message))" }
        let object: JSONValue = [
            "time": .string(RequestLogFormatter.utcTime(System.epochMilliseconds())), "level": "warning", "message": .string(message),
        ]
        return object.serialized
    }

    /// Waits until every accepted line is written.
    package func flush() { queue.sync {} }
}

/// How request lines look: `--log-format`, color, `--verbose`.
package struct RequestLogOptions: Sendable {
    package enum Format: String, Sendable, CaseIterable {
        /// `21:30:01.123 GET /v1/discover?page=x 422 discover 0.31ms  query.page: expected int, found "x"`
        case text
        /// One JSON object per line: time, method, path, query, status, contract, response, ms, problem.
        case json
    }

    package var format: Format
    /// ANSI color for the status (text only); the caller decides (a terminal, no `NO_COLOR`).
    package var color: Bool
    /// Request headers (and the headers a contract's response sets) under each line.
    package var verbose: Bool

    package init(format: Format = .text, color: Bool = false, verbose: Bool = false) {
        self.format = format
        self.color = color
        self.verbose = verbose
    }
}
