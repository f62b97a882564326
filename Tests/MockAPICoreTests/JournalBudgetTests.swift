import Foundation
import MockAPITestSupport
import Synchronization
import Testing

@testable import MockAPICore

/// The byte budget is one for the whole journal, however the requests spread over threads:
/// many threads record entries of random sizes into a small budget, and what is kept is always
/// the newest requests, in one unbroken run, filling the budget without passing it.
struct JournalBudgetTests {
    /// Runs `body(thread)` on `count` threads of their own (not the cooperative pool, which may
    /// have only two), returning when all are done.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            let thread = Thread {
                body(index)
                done.leave()
            }
            thread.start()
        }
        done.wait()
    }

    @Test(arguments: [1, 2, 3])
    func keptIdsAreTheNewestUnbrokenRunWithinTheBudget(seed: UInt64) throws {
        let budget = 96 * 1024
        let journal = RequestJournal(capacity: 1_000_000, maxBytes: budget, shards: 8)
        let threads = 8
        let perThread = 1_500
        let overBudget = Atomic<Int>(0)
        let sampling = Atomic<Bool>(true)
        // Samples the bytes held (one consistent moment each) while the writers run.
        let sampler = Thread {
            while sampling.load(ordering: .relaxed) {
                let held = journal.bytesHeld
                if held > budget { overBudget.store(held, ordering: .relaxed) }
                usleep(200)
            }
        }
        sampler.start()
        Self.onThreads(threads) { thread in
            var random = SplitMix64(seed: seed &* 1_000 &+ UInt64(thread))
            for _ in 0..<perThread {
                journal.record(path: "/" + String(repeating: "p", count: Int.random(in: 10...3_000, using: &random)))
            }
        }
        sampling.store(false, ordering: .relaxed)

        #expect(overBudget.load(ordering: .relaxed) == 0, "the bytes held never pass the budget")
        let ids = journal.entries().map(\.id)
        let lastID = threads * perThread
        #expect(journal.lastID == lastID)
        #expect(ids.last == lastID, "the newest request is kept")
        #expect(ids == Array((lastID - ids.count + 1)...lastID), "the kept ids are one unbroken run ending at the newest")
        let held = journal.bytesHeld
        #expect(held <= budget)
        #expect(held >= budget * 7 / 10, "the whole budget is used, not a shard's share: \(held) of \(budget) bytes")

        // A reader paging from an id that is gone is told how many it missed, and where the journal starts.
        let first = try #require(ids.first)
        #expect(journal.firstID == first)
        #expect(journal.evictedCount(after: 0) == first - 1)
        #expect(journal.evictedCount(after: first - 10) == 9)
        #expect(journal.evictedCount(after: first - 1) == 0)
        #expect(journal.entries(matching: JournalQuery(since: first - 10, limit: 1)).map(\.id) == [first])
    }

    @Test func clearedRequestsAreNotCountedAsEvicted() {
        let journal = RequestJournal(capacity: 3)
        for i in 1...5 { journal.record(path: "/\(i)") }
        #expect(journal.evictedCount(after: 0) == 2)
        #expect(journal.firstID == 3)
        journal.reset()
        #expect(journal.evictedCount(after: 0) == 0, "a DELETE is the reader's own doing, not a loss")
        #expect(journal.firstID == 6)
        for i in 6...10 { journal.record(path: "/\(i)") }
        #expect(journal.evictedCount(after: 5) == 2)
        #expect(journal.entries().map(\.id) == [8, 9, 10])
    }

    @Test func oneThreadGetsTheWholeBudgetNotAShardsShare() {
        let journal = RequestJournal(capacity: 100_000, maxBytes: 256 * 1024, shards: 8)
        for i in 0..<1_000 { journal.record(path: "/\(i)/" + String(repeating: "p", count: 1_000)) }
        #expect(journal.bytesHeld >= 256 * 1024 * 9 / 10, "\(journal.bytesHeld)")
        #expect(journal.bytesHeld <= 256 * 1024)
    }
}
