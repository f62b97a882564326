import Foundation
import MockAPIServer

/// `MOCKAPI_HOST` and `MOCKAPI_PORT` stand in for `--host` and `--port` when those are not given
/// (`MOCKAPI_CONTRACTS` and `MOCKAPI_FIXTURES` live with `ContractOptions`): a flag beats its
/// variable, the variable beats the default. `MOCKAPI_REDACT_HEADERS` adds to `--redact-header`
/// instead: redacting more is never the wrong way to combine them.
extension ServerOptions {
    var listenHost: String {
        listening.host ?? ProcessInfo.processInfo.environment["MOCKAPI_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaults.host
    }

    /// Throws when `MOCKAPI_PORT` is set but is no port, rather than quietly using 8080.
    func listenPort() throws -> UInt16 {
        if let port = listening.port {
            guard let number = UInt16(port) else { throw CommandFailure.usage("--port must be 0 to 65535 (it is \"\(port)\")") }
            return number
        }
        guard let text = ProcessInfo.processInfo.environment["MOCKAPI_PORT"], !text.isEmpty else { return Self.defaults.port }
        guard let port = UInt16(text) else { throw CommandFailure.usage("MOCKAPI_PORT is \"\(text)\": expected a port number, 0 to 65535") }
        return port
    }

    /// `--redact-header` names, then `MOCKAPI_REDACT_HEADERS`'s (comma-separated, blanks ignored).
    var redactedHeaders: [String] {
        let fromEnvironment = (ProcessInfo.processInfo.environment["MOCKAPI_REDACT_HEADERS"] ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return (journal.redactHeaders + fromEnvironment).filter { !$0.isEmpty }
    }
}
