import Synchronization
import SystemLibc

/// A small, stable number for the calling thread (0, 1, 2, … in order of first use), so
/// per-request state can be split by thread and the server's workers stop sharing cache lines.
package enum ThreadSlot {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private static let assigned = Atomic<Int>(0)

    package static var current: Int {
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) - 1 }
        let slot = assigned.add(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: slot + 1))
        return slot
    }
}
