import MockAPITestSupport
import Testing

@testable import MockAPICore

/// The journal's byte ring against a plain model: whatever sequence of appends and drops, the
/// live records are the model's, byte for byte, and the ring touches about twice what it keeps
/// however large the buffer it reserved.
struct RecordArenaTests {
    /// A record's bytes: its id's low byte, then a running count, so a record overwritten by
    /// another (or moved wrongly) reads differently.
    static func fill(_ base: UnsafeMutableRawPointer, id: Int, size: Int) {
        for index in 0..<size { base.storeBytes(of: UInt8(truncatingIfNeeded: id &* 31 &+ index), toByteOffset: index, as: UInt8.self) }
    }

    static func check(_ arena: borrowing RecordArena, against model: [(id: Int, size: Int)]) {
        var seen: [(Int, Int)] = []
        arena.forEach { id, bytes in
            seen.append((id, bytes.count))
            let intact = bytes.indices.allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: id &* 31 &+ $0) }
            #expect(intact, "record \(id) was overwritten")
            return true
        }
        #expect(seen.map(\.0) == model.map(\.id))
        #expect(seen.map(\.1) == model.map(\.size))
        #expect(arena.liveBytes == model.reduce(0) { $0 + $1.size })
    }

    /// Sizes from 1 byte to 40 KiB, the live set growing, shrinking and holding steady, so the
    /// ring wraps, moves its soft end, and relocates both wrapped and not.
    @Test(arguments: [1, 2, 3, 4])
    func liveRecordsAreTheModelsWhateverTheSequence(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var arena = RecordArena(reserve: seed.isMultiple(of: 2) ? 1024 * 1024 : 0, slotReserve: 64)
        var model: [(id: Int, size: Int)] = []
        for id in 1...6_000 {
            let phase = id / 1_000
            let size =
                switch random.next() % 20 {
                case 0: Int(random.next() % 40_000) + 1
                case 1...3: Int(random.next() % 2_000) + 1
                default: Int(random.next() % 300) + 1
                }
            let keep = phase.isMultiple(of: 2) ? 50 + phase * 40 : 400 - phase * 30
            while model.count >= keep, let oldest = model.first {
                #expect(arena.drop(through: oldest.id) == oldest.size)
                model.removeFirst()
            }
            Self.fill(arena.append(id: id, size: size), id: id, size: size)
            model.append((id, size))
            if id.isMultiple(of: 97) { Self.check(arena, against: model) }
        }
        Self.check(arena, against: model)
        arena.shrinkIfSparse()
        Self.check(arena, against: model)
    }

    /// A journal shard's case: a 1 MiB reserve, 1,000 GET-sized records kept out of 50,000. The
    /// ring wraps near twice the ~120 KB it keeps; running to the buffer's end touched all of it.
    @Test func aRingTouchesAboutTwiceWhatItKeepsNotItsWholeReserve() {
        var arena = RecordArena(reserve: 1024 * 1024, slotReserve: 2048)
        var highest = 0
        for id in 1...50_000 {
            _ = arena.drop(through: id - 1_000)
            let base = arena.append(id: id, size: 120)
            Self.fill(base, id: id, size: 120)
            highest = max(highest, arena.softEnd)
        }
        #expect(arena.liveBytes == 120_000)
        #expect(highest <= 4 * 120_000, "the ring reached \(highest) bytes of its 1 MiB")
        var model: [(id: Int, size: Int)] = []
        for id in 49_001...50_000 { model.append((id, 120)) }
        Self.check(arena, against: model)
    }
}
