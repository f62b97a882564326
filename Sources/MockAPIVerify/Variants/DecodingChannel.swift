import Foundation

/// What travels between `verify` and its decoding child: netstrings (`5:hello,`) on a pipe, so a
/// body holds any bytes and a message needs no escaping. Reads block: the parent waits for one
/// answer at a time, and the child for one request.
struct DecodingChannel {
    let input: Int32
    let output: Int32
    /// How long a read waits for the other side before giving up (milliseconds; -1: for ever).
    var timeout: Int32 = -1
    /// The last `receive` gave up after `timeout` with the other side still there.
    private(set) var timedOut = false
    private var buffer: [UInt8] = []

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Writes every field as one netstring; false when the other end has gone.
    func send(_ fields: [[UInt8]]) -> Bool {
        var bytes: [UInt8] = []
        for field in fields { bytes += Array("\(field.count):".utf8) + field + [UInt8(ascii: ",")] }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    func send(_ fields: [String]) -> Bool { send(fields.map { Array($0.utf8) }) }

    /// The next `count` fields; nil at the end of the stream (the other side has gone) or on garbage.
    mutating func receive(_ count: Int) -> [[UInt8]]? {
        timedOut = false
        var fields: [[UInt8]] = []
        while fields.count < count {
            guard let field = nextField() else { return nil }
            fields.append(field)
        }
        return fields
    }

    private mutating func nextField() -> [UInt8]? {
        while true {
            if let colon = buffer.prefix(20).firstIndex(of: UInt8(ascii: ":")) {
                guard let length = Int(String(decoding: buffer[..<colon], as: UTF8.self)), length >= 0 else { return nil }
                let end = colon + 1 + length
                if buffer.count > end {
                    guard buffer[end] == UInt8(ascii: ",") else { return nil }
                    let field = Array(buffer[(colon + 1)..<end])
                    buffer.removeFirst(end + 1)
                    return field
                }
            } else if buffer.count >= 20 {
                return nil
            }
            guard fill() else { return nil }
        }
    }

    /// Reads what the pipe has; false at its end.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        while true {
            let polled = poll(&ready, 1, timeout)
            if polled < 0, errno == EINTR { continue }
            if polled == 0 {
                timedOut = true
                return false
            }
            break
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer += chunk[..<count]
            return true
        }
    }
}
