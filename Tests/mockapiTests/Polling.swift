import Foundation

/// Polls every 50 ms for up to `seconds` until `condition` holds: for what a running server
/// picks up by itself (a watched edit), without a fixed sleep.
func within(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return false
}
