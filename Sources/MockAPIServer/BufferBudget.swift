import Synchronization

/// Bytes of JSON bodies held at once across every connection (`--max-buffered-bytes`). A JSON body
/// is buffered whole to be parsed, so without a shared budget a thousand connections each sending
/// a body just under `--max-json-bytes` hold a gigabyte between them.
final class BufferBudget: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `bytes` from the budget; false, taking nothing, when that would pass the limit.
    func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        if held.add(bytes, ordering: .relaxed).newValue <= limit { return true }
        held.subtract(bytes, ordering: .relaxed)
        return false
    }

    func release(_ bytes: Int) {
        if bytes > 0 { held.subtract(bytes, ordering: .relaxed) }
    }
}
