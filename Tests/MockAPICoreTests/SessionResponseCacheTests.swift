import MockAPICore
import Synchronization
import Testing

/// What a session keeps of its `{{baseURL}}` answers is let go exactly once: retired when a reload
/// replaces the responses it was built from (a request of the old generation may still queue
/// one), freed when the session goes.
@Suite struct SessionResponseCacheTests {
    final class Freed: Sendable {
        let pointers = Mutex<[Int]>([])
        var release: SessionResponseCache.Release { { pointer in self.pointers.withLock { $0.append(Int(bitPattern: UnsafeRawPointer(pointer))) } } }
        var all: [Int] { pointers.withLock { $0.sorted() } }
    }

    static func pointer(_ value: Int) -> OpaquePointer { OpaquePointer(bitPattern: value)! }

    @Test func aResponseIsMadeOncePerSlotAndRetiredWhenAReloadReplacesIt() {
        let freed = Freed()
        let retired = Freed()
        let cache = SessionResponseCache()
        var made = 0
        func lookup(generation: UInt64, slot: Int, value: Int) -> Int {
            Int(
                bitPattern: UnsafeRawPointer(
                    cache.response(generation: generation, slot: slot, release: freed.release, retire: retired.release) {
                        made += 1
                        return Self.pointer(value)
                    }))
        }
        #expect(lookup(generation: 1, slot: 0, value: 0x10) == 0x10)
        #expect(lookup(generation: 1, slot: 0, value: 0x99) == 0x10)
        #expect(lookup(generation: 1, slot: 3, value: 0x20) == 0x20)
        #expect(made == 2 && cache.count == 2 && freed.all.isEmpty && retired.all.isEmpty)
        #expect(lookup(generation: 2, slot: 0, value: 0x30) == 0x30)
        #expect(retired.all == [0x10, 0x20] && freed.all.isEmpty && cache.count == 1)
    }

    /// The request path's lookup, without the lock: it finds only what `response` made for that
    /// generation, and nothing of a generation a reload has freed.
    @Test func aLookupFindsOnlyTheResponsesOfItsGeneration() {
        let freed = Freed()
        let retired = Freed()
        let cache = SessionResponseCache()
        #expect(cache.cached(generation: 1, slot: 0) == nil)
        _ = cache.response(generation: 1, slot: 4, release: freed.release, retire: retired.release) { Self.pointer(0x60) }
        _ = cache.response(generation: 1, slot: 2, release: freed.release, retire: retired.release) { Self.pointer(0x70) }
        #expect(cache.cached(generation: 1, slot: 4) == Self.pointer(0x60))
        #expect(cache.cached(generation: 1, slot: 2) == Self.pointer(0x70))
        #expect(cache.cached(generation: 1, slot: 3) == nil)
        #expect(cache.cached(generation: 2, slot: 4) == nil)
        _ = cache.response(generation: 2, slot: 4, release: freed.release, retire: retired.release) { Self.pointer(0x80) }
        #expect(retired.all == [0x60, 0x70] && freed.all.isEmpty)
        #expect(cache.cached(generation: 1, slot: 4) == nil && cache.cached(generation: 1, slot: 2) == nil)
        #expect(cache.cached(generation: 2, slot: 4) == Self.pointer(0x80))
    }

    @Test func whatASessionKeptIsFreedWhenItGoes() {
        let freed = Freed()
        let retired = Freed()
        do {
            let cache = SessionResponseCache()
            _ = cache.response(generation: 7, slot: 1, release: freed.release, retire: retired.release) { Self.pointer(0x40) }
            _ = cache.response(generation: 7, slot: 2, release: freed.release, retire: retired.release) { Self.pointer(0x50) }
        }
        #expect(freed.all == [0x40, 0x50] && retired.all.isEmpty)
    }
}
