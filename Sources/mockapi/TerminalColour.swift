import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether to colour what goes to stderr: only a terminal, and never when `NO_COLOR` is set to
/// anything but the empty string (https://no-color.org), so pipes, files and CI logs stay plain.
enum TerminalColour {
    static var onStandardError: Bool {
        isatty(STDERR_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
