import Synchronization

/// Requests between their first callback and their completion, counted per thread slot so the
/// workers never write a shared counter; shutdown waits for the sum to reach zero.
///
/// The counters sit a cache line apart in one allocation and are changed in place: an array of
/// counter objects had each one retained and released around every change.
final class InFlightCounters: @unchecked Sendable {
    // Why unchecked: the memory is allocated in init and freed in deinit; between, it is only
    // touched through the atomics in it.
    private static let slots = 16
    private static let lineSize = 64
    private let memory: UnsafeMutableRawPointer

    init() {
        memory = .allocate(byteCount: Self.slots * Self.lineSize, alignment: Self.lineSize)
        for slot in 0..<Self.slots { counter(slot).initialize(to: Atomic(0)) }
    }

    deinit {
        for slot in 0..<Self.slots { counter(slot).deinitialize(count: 1) }
        memory.deallocate()
    }

    private func counter(_ slot: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (memory + (slot % Self.slots) * Self.lineSize).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// Counts a request in (1) or out (-1) on the counter of the thread slot it began on.
    /// Wrapping: a count of requests cannot overflow, and the checked `add` was a compare-and-swap
    /// loop where this is one locked add.
    func add(_ change: Int, slot: Int) {
        counter(slot).pointee.wrappingAdd(change, ordering: .relaxed)
    }

    var total: Int {
        (0..<Self.slots).reduce(0) { $0 + counter($1).pointee.load(ordering: .acquiring) }
    }
}
