import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIServer

/// `MOCKAPI_REDACT_HEADERS` adds to `--redact-header` rather than standing in for it (as
/// `MOCKAPI_HOST` and `MOCKAPI_PORT` do for `--host` and `--port`, in `ListenAddressOptions`):
/// redacting more is never the wrong way to combine them.
extension ServerOptions {
    /// `--redact-header` names, then `MOCKAPI_REDACT_HEADERS`'s (comma-separated, blanks ignored).
    var redactedHeaders: [String] {
        let fromEnvironment = (EnvironmentVariable.value("MOCKAPI_REDACT_HEADERS") ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return (journal.redactHeaders + fromEnvironment).filter { !$0.isEmpty }
    }
}
