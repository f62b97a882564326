import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIServer

/// A worker reads its lease from a thread-local cache that holds one cell's lease at a time
/// (`ServingStateCell.lease`); a thread that asks two cells in turn, and a reload between its
/// requests, must still get each cell's current state, and a cell gone must leave nothing another
/// cell could take for its own.
struct ServingStateCellTests {
    static func state() throws -> ServingState {
        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        return ServingState(responder: Responder(set: set), prepared: PreparedResponses(set: set))
    }

    @Test func eachCellLeasesItsOwnCurrentStateOnOneThread() throws {
        let (first, second, reloaded) = (try Self.state(), try Self.state(), try Self.state())
        let cellA = ServingStateCell(first)
        let cellB = ServingStateCell(second)
        for _ in 0..<3 {
            #expect(cellA.lease().takeUnretainedValue().state === first)
            #expect(cellB.lease().takeUnretainedValue().state === second)
        }
        cellA.replace(with: reloaded)
        #expect(cellA.lease().takeUnretainedValue().state === reloaded, "renewed after a reload")
        #expect(cellB.lease().takeUnretainedValue().state === second)
        #expect(cellA.lease().takeUnretainedValue().state === reloaded, "and found again after the other cell's")
        // A cell made after another is gone never takes the cache the gone one left.
        var gone: ServingStateCell? = ServingStateCell(first)
        _ = gone?.lease()
        gone = nil
        let later = ServingStateCell(second)
        #expect(later.lease().takeUnretainedValue().state === second)
    }
}
