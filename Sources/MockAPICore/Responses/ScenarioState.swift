import Synchronization

/// Where each contract's response `sequence` has got to. Shared by all server threads.
public final class ScenarioState: Sendable {
    private let positions: Mutex<[Int: Int]> = Mutex([:])

    public init() {}

    /// The step to serve now for a contract with a sequence of `length`, advancing it;
    /// past the end the last step repeats.
    public func advance(contract: Int, length: Int) -> Int {
        positions.withLock { positions in
            let step = positions[contract, default: 0]
            positions[contract] = step + 1
            return min(step, length - 1)
        }
    }

    /// Starts every sequence over.
    public func reset() {
        positions.withLock { $0.removeAll() }
    }
}
