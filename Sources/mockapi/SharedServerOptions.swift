import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIServer

// The options of every command that runs a server (`serve`, `record`), each declared once here
// and used by both as an `@OptionGroup`: one flag name, one default (`ServerConfiguration`'s or
// `ProxyConfiguration`'s), one check, one error.

/// `--host` and `--port`. `MOCKAPI_HOST` and `MOCKAPI_PORT` stand in for them when they are not
/// given: a flag beats its variable, the variable beats the default.
struct ListenAddressOptions: ParsableArguments {
    private static var defaults: ServerConfiguration { ServerConfiguration() }

    @Option(help: "Address to listen on: an IPv4 or IPv6 literal, or a name such as localhost (default: 127.0.0.1, or $MOCKAPI_HOST).")
    var host: String?

    // Text, taken as given: `--port -1` is a bad port, not a missing value (see listenPort).
    @Option(name: [.short, .long], parsing: .unconditional, help: "Port to listen on; 0 picks a free one (default: 8080, or $MOCKAPI_PORT).")
    var port: String?

    /// The address as given, by flag, variable or default (`ListenAddress.resolve` makes it an IP).
    var listenHost: String {
        host ?? EnvironmentVariable.nonEmpty("MOCKAPI_HOST") ?? Self.defaults.host
    }

    /// The port; a usage failure when `--port` or a set `MOCKAPI_PORT` is no port (rather than quietly 8080).
    func listenPort() throws -> UInt16 {
        if let port {
            guard let number = UInt16(port) else { throw CommandFailure.usage("--port must be 0 to 65535 (it is \"\(port)\")") }
            return number
        }
        guard let text = EnvironmentVariable.nonEmpty("MOCKAPI_PORT") else { return Self.defaults.port }
        guard let port = UInt16(text) else { throw CommandFailure.usage("MOCKAPI_PORT is \"\(text)\": expected a port number, 0 to 65535") }
        return port
    }

    /// The listening address resolved to an IP literal, or the failure naming it.
    func resolvedHost() throws -> String {
        do { return try ListenAddress.resolve(listenHost) } catch { throw CommandFailure.unusable(error.description) }
    }
}

/// `--admin-token` and `--quiet`: who may use the server's admin endpoints, and whether each
/// request is logged.
struct ServerAccessOptions: ParsableArguments {
    @Option(help: "Admin endpoints (/__mockapi/) need the header Mockapi-Admin-Token with this value.")
    var adminToken: String?

    @Flag(help: "No per-request log lines on stderr.")
    var quiet = false

    func check() throws {
        guard adminToken.map({ !$0.isEmpty }) ?? true else { throw CommandFailure.usage("--admin-token must not be empty") }
    }
}

/// `--proxy-ca-file` and `--proxy-timeout`: how a request is forwarded to a real backend
/// (`serve --proxy-unmatched`, `record --target`).
struct ForwardOptions: ParsableArguments {
    static var defaults: ProxyConfiguration { ProxyConfiguration(target: "") }
    /// What `--proxy-timeout` may be, in seconds.
    static let timeouts = NumberRange(1, 3600, "seconds")

    @Option(
        help: ArgumentHelp(
            "PEM file of the CAs to trust for an HTTPS backend (--proxy-unmatched, record's --target; default: the system's).",
            valueName: "file"))
    var proxyCaFile: String?

    @Option(
        parsing: .unconditional,
        help: "Seconds a backend may take to start its answer before the client gets 504, and then to go quiet mid-body before the client's connection is closed (1 to 3600)."
    )
    var proxyTimeout = defaults.timeoutSeconds

    /// `backend` (the URL `flag` gives, when given) and the forwarding options against their
    /// rules; a CA file is read whether or not a backend is given, as both commands do.
    func check(backend: String?, flag: String) throws {
        if let backend { try BackendURL.check(backend, flag: flag) }
        try BackendURL.check(caFile: proxyCaFile, flag: "--proxy-ca-file")
        guard Self.timeouts.contains(Double(proxyTimeout)) else { throw CommandFailure.unusable(Self.timeouts.refusal("--proxy-timeout \(proxyTimeout)")) }
    }

    /// The forwarding to `target` these options ask for.
    func proxy(to target: String) -> ProxyConfiguration {
        var proxy = ProxyConfiguration(target: target, caFile: proxyCaFile)
        proxy.timeoutSeconds = proxyTimeout
        return proxy
    }
}

/// `--redact-key`: more names of body keys, form fields, multipart parts, query parameters and
/// headers whose values are credentials, beside the standard ones (`password`, `token`,
/// `client_secret`…), for the commands that write contracts from traffic (`record`, `import har`).
/// As `serve --redact-header` does, it adds to `MOCKAPI_REDACT_KEYS`: redacting more is never wrong.
struct RedactKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("redact-key"),
        help: ArgumentHelp(
            "Also treat this body key, form field, query parameter or header as a credential: its values are written as [redacted] and never pick an answer; repeatable (and $MOCKAPI_REDACT_KEYS, comma-separated; password, token, secret, api_key… always are).",
            valueName: "name"))
    var redactKeys: [String] = []

    /// The standard credential names, these and `MOCKAPI_REDACT_KEYS`'s (any case, any separators).
    var credentials: CredentialKeys {
        let fromEnvironment = (EnvironmentVariable.value("MOCKAPI_REDACT_KEYS") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return CredentialKeys(extraNames: (redactKeys + fromEnvironment).filter { !$0.isEmpty })
    }
}
