import Synchronization
import SystemLibc

/// The values an answer makes up itself (`{{uuid}}`, `{{now}}`, `{{now.unix}}`, `{{counter}}`),
/// each made at most once per answer, when the template first asks: every `{{uuid}}` of one
/// answer is the same id (an `id` and the `href` that names it agree), the next answer gets another.
struct AnswerValues {
    /// What `{{counter}}` counts: the server's answers, or one session's.
    private let counting: AnswerCounter

    private var madeUUID: String?
    private var madeCounter: Int?
    private var madeSeconds: Int?

    /// A random (version 4) UUID, lowercase as RFC 9562 writes them; the same one all answer long.
    mutating func uuid() -> String {
        if let madeUUID { return madeUUID }
        let made = Self.randomUUID()
        madeUUID = made
        return made
    }

    /// A fresh random (version 4) UUID, lowercase as RFC 9562 writes them.
    static func randomUUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 9562 variant
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    init(counting: AnswerCounter) {
        self.counting = counting
    }

    /// The next answer number, from 1.
    mutating func counter() -> Int {
        if let madeCounter { return madeCounter }
        let made = counting.next()
        madeCounter = made
        return made
    }

    /// Seconds since 1970, read once per answer so `{{now}}` and `{{now.unix}}` agree.
    mutating func unixSeconds() -> Int {
        if let madeSeconds { return madeSeconds }
        let made = time(nil)
        madeSeconds = made
        return made
    }

    /// The time as RFC 3339 in UTC, to the second: `2026-11-26T13:20:41Z`.
    mutating func now() -> String {
        var seconds = time_t(unixSeconds())
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

/// Answer numbers for `{{counter}}`: one count for the whole process (every contract and reload)
/// outside sessions, and one per session, so a UI test sees 1, 2, 3 whatever runs beside it.
package final class AnswerCounter: Sendable {
    package static let process = AnswerCounter()
    private let answers = Atomic<Int>(0)

    package init() {}

    func next() -> Int { answers.add(1, ordering: .relaxed).newValue }
}
