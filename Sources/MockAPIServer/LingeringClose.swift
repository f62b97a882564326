import Foundation
import Synchronization
import SystemLibc

/// Keeps a connection answered mid-body open for reading a little longer after libmicrohttpd
/// closes its descriptor. Closing a socket whose peer is still sending makes the kernel answer
/// with a reset, and a reset that arrives before the client has read our answer throws the answer
/// away (curl then reports `000` for a 413 it was sent). A duplicate descriptor keeps the socket
/// alive past MHD's close; one thread reads and discards what the client still sends until it
/// stops, for at most `maxWait` or `maxBytes`, and then closes it (RFC 9112 §9.6's lingering close).
/// Bounded: past `capacity` lingering sockets a new one is closed at once, as before.
final class LingeringClose: Sendable {
    static let shared = LingeringClose()

    static let capacity = 256
    static let maxWait: Double = 2
    static let maxBytes = 16 << 20

    private struct Lingering {
        var descriptor: Int32
        var deadline: Double
        var discarded = 0
    }

    private let lingering = Mutex<[Lingering]>([])
    /// Wakes the thread when a socket is added: the pipe's read end is polled beside the sockets.
    private let wake: (read: Int32, write: Int32)

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        wake = (ends[0], ends[1])
        guard ends[0] >= 0 else { return }
        let thread = Thread { [self] in run() }
        thread.name = "mockapi-linger"
        thread.start()
    }

    /// Takes over reading `descriptor`'s socket (through a duplicate) once its owner closes it.
    func linger(_ descriptor: Int32) {
        guard wake.write >= 0 else { return }
        let copy = dup(descriptor)
        guard copy >= 0 else { return }
        let added = lingering.withLock { list -> Bool in
            guard list.count < Self.capacity else { return false }
            list.append(Lingering(descriptor: copy, deadline: Self.now() + Self.maxWait))
            return true
        }
        guard added else {
            close(copy)
            return
        }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let sockets = lingering.withLock { $0.map(\.descriptor) }
            var polled = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            polled += sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            // Without sockets, sleep until one comes; with some, wake often enough to keep deadlines.
            _ = poll(&polled, nfds_t(polled.count), sockets.isEmpty ? -1 : 100)
            if polled[0].revents != 0 {
                while read(wake.read, &buffer, buffer.count) > 0 {}
            }
            var readable: [Int32: Int] = [:]
            for entry in polled.dropFirst() where entry.revents != 0 {
                // Read what is there; 0 means the client has finished sending (or left).
                let count = read(entry.fd, &buffer, buffer.count)
                readable[entry.fd] = count < 0 && (errno == EAGAIN || errno == EINTR) ? 1 : count
            }
            let now = Self.now()
            let finished = lingering.withLock { list -> [Int32] in
                for index in list.indices {
                    if let count = readable[list[index].descriptor] { list[index].discarded += max(count, 0) }
                }
                let done = list.filter { socket in
                    readable[socket.descriptor].map { $0 <= 0 } == true || socket.discarded >= Self.maxBytes || now >= socket.deadline
                }
                list.removeAll { socket in done.contains { $0.descriptor == socket.descriptor } }
                return done.map(\.descriptor)
            }
            for descriptor in finished { close(descriptor) }
        }
    }
}
