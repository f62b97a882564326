import Foundation
import SystemLibc

/// The one color policy of every command, for stdout and stderr alike: color only on a terminal,
/// never with `NO_COLOR` set to anything but the empty string (https://no-color.org) or with
/// `TERM=dumb`, so pipes, files and CI logs stay plain.
package enum TerminalColor {
    package static func allowed(on descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isatty(descriptor) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
