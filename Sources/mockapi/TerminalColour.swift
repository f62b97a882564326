import Foundation
import MockAPIVerifyCommand
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether to colour what goes to stderr: the rule `verify` follows for stdout (a terminal, no
/// `NO_COLOR`, not `TERM=dumb`).
enum TerminalColour {
    static var onStandardError: Bool { TerminalColor.allowed(on: STDERR_FILENO) }
}
