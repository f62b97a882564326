// The platform's C library, chosen in this one place: `import SystemLibc` instead of an
// `#if canImport(Glibc) … Darwin` in every file that calls POSIX. (A file that imports Foundation
// has it already: Foundation re-exports it on both platforms.)
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("no C library module for this platform")
#endif

#if os(Linux)
/// `send`'s flags so that a peer which has gone raises no SIGPIPE: `MSG_NOSIGNAL` on Linux.
/// Darwin has no such flag; there a socket's `SO_NOSIGPIPE` does that job (libmicrohttpd sets it
/// on every socket it accepts; `noSIGPIPE` sets it on one's own).
package let sendWithoutSIGPIPE = Int32(MSG_NOSIGNAL)
/// `SOCK_STREAM`, an enum case in Glibc and a plain number in Darwin.
package let streamSocket = Int32(SOCK_STREAM.rawValue)
/// Nothing to do on Linux: every `send` says `sendWithoutSIGPIPE`.
package func noSIGPIPE(_ descriptor: Int32) {}
#else
package let sendWithoutSIGPIPE: Int32 = 0
package let streamSocket = SOCK_STREAM
/// A socket that raises no SIGPIPE when written after its peer has gone.
package func noSIGPIPE(_ descriptor: Int32) {
    var on: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
}
#endif
