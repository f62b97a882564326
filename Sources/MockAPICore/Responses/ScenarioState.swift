import Synchronization

/// Where each contract's response `sequence` has got to. Shared by all server threads.
package final class ScenarioState: Sendable {
    private let positions: Mutex<[Int: Int]> = Mutex([:])

    package init() {}

    /// The step to serve now for a contract with a sequence of `length`, advancing it;
    /// past the end the last step repeats.
    package func advance(contract: Int, length: Int) -> Int {
        positions.withLock { positions in
            let step = positions[contract, default: 0]
            positions[contract] = step + 1
            return min(step, length - 1)
        }
    }

    /// Starts every sequence over.
    package func reset() {
        positions.withLock { $0.removeAll() }
    }
}
