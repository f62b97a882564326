import Foundation
import MockAPICommandKit

/// A file a flag names (`--tls-cert`, `--tls-key`, `--proxy-ca-file`, `--ca-file`), read before
/// the server starts: only a regular file, and only up to a bound, so `/dev/zero` cannot fill
/// memory and a FIFO cannot hold the start for ever. Every refusal names the flag and the file.
enum FlagFile {
    /// Certificates, keys and CA bundles are kilobytes; a system CA bundle about 200 KB.
    static let maxBytes = 10 * 1024 * 1024

    static func read(_ file: String, flag: String, maxBytes: Int = maxBytes) throws -> [UInt8] {
        func refused(_ reason: String) -> CommandFailure { .unusable(#"\#(flag) "\#(file)" cannot be read: \#(reason)"#) }
        // Non-blocking: opening a FIFO with no writer would otherwise wait; the kind is checked
        // on the open descriptor, so nothing swapped in between is read instead.
        let descriptor = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw refused(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw refused(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: throw refused("it is a FIFO, not a regular file")
        case S_IFCHR, S_IFBLK: throw refused("it is a device, not a regular file")
        case S_IFDIR: throw refused("it is a folder, not a regular file")
        default: throw refused("it is not a regular file")
        }
        guard Int(info.st_size) <= maxBytes else { throw refused("it is \(info.st_size) bytes; files over \(maxBytes) bytes are refused") }
        // At most one byte past the bound is read, in case the file grew since `fstat`.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count >= 0 else { throw refused(String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        guard filled <= maxBytes else { throw refused("it grew past \(maxBytes) bytes while being read") }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
