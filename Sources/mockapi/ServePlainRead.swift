import ArgumentParser
import MockAPICommandKit
import MockAPIServer

/// The `serve` lines scripts, tests and benches start servers with, read without ArgumentParser.
///
/// Its parse of `Serve` reflects over every option group, and the runtime checks each option's
/// generic requirements by scanning the binary's 6,700 protocol conformances, some 450 times:
/// 62 % of a start's instructions (docs/performance.md). Only the flags below are read, each at
/// most once, each value plain (not starting with `-`, so never one ArgumentParser would take for
/// a flag); any other line, and a line whose values break a rule (`check()`), is left to
/// `ServeFastParse`'s ArgumentParser way, so every message stays ArgumentParser's. Every other
/// option is set to its default, from the expression its declaration uses;
/// `ServeFastParseTests` checks that no option is left unset and that each line reads as
/// ArgumentParser reads it.
enum ServePlainRead {
    /// Flags that take a value, by the name the line may give (`-p` is `--port`).
    private static let valued: [String: String] = [
        "--contracts": "--contracts", "--fixtures": "--fixtures", "--host": "--host", "--port": "--port", "-p": "--port",
        "--threads": "--threads", "--max-connections": "--max-connections", "--max-connections-per-ip": "--max-connections-per-ip",
        "--log-format": "--log-format",
    ]
    /// Flags that take none.
    private static let switches: Set<String> = ["--quiet", "--watch", "--cors", "--verbose"]

    /// What the plain read made of a line.
    enum Reading {
        /// A flag, a repeat or a value this read does not take: ArgumentParser reads the line.
        case notPlain
        /// A plain line a check refuses: the root parse says why (`Serve` parsed alone would only
        /// fail the same check first, a second reflective parse on the way to the message).
        case refused
        case read(MockAPICommand.Serve)
    }

    /// The line read, refused by a check, or not plain; `arguments` follow `serve`.
    static func read(_ arguments: [String]) -> Reading {
        var values: [String: String] = [:]
        var given: Set<String> = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if let name = valued[argument] {
                guard index + 1 < arguments.endIndex else { return .notPlain }
                let value = arguments[index + 1]
                guard !value.hasPrefix("-"), values.updateValue(value, forKey: name) == nil else { return .notPlain }
                index += 2
            } else if switches.contains(argument), given.insert(argument).inserted {
                index += 1
            } else {
                return .notPlain
            }
        }
        // A value that is not what its option takes is ArgumentParser's to refuse.
        func number(_ name: String) -> Int?? { values[name].map { Int($0) } }
        let threads = number("--threads"), maxConnections = number("--max-connections")
        let maxConnectionsPerIP = number("--max-connections-per-ip")
        guard threads != .some(nil), maxConnections != .some(nil), maxConnectionsPerIP != .some(nil) else { return .notPlain }
        var logFormat = RequestLogOptions.Format.text
        if let format = values["--log-format"] {
            guard let known = RequestLogOptions.Format(rawValue: format) else { return .notPlain }
            logFormat = known
        }

        var serve = MockAPICommand.Serve()
        serve.served = served(contracts: values["--contracts"], fixtures: values["--fixtures"], watch: given.contains("--watch"))
        var options = ServerOptions()
        options.listening = listening(host: values["--host"], port: values["--port"])
        options.limits = limits(threads: threads ?? nil, maxConnections: maxConnections ?? nil, perIP: maxConnectionsPerIP ?? nil)
        options.answers = answers(cors: given.contains("--cors"))
        options.journal = journal(quiet: given.contains("--quiet"), format: logFormat, verbose: given.contains("--verbose"))
        serve.options = options
        guard (try? serve.check()) != nil else { return .refused }
        return .read(serve)
    }

    private static func served(contracts: String?, fixtures: String?, watch: Bool) -> ServedSetOptions {
        var folders = ContractOptions()
        folders.contracts = contracts ?? ContractOptions.defaultContracts
        folders.fixtures = fixtures ?? ContractOptions.defaultFixtures
        var served = ServedSetOptions()
        served.contractOptions = folders
        served.openapi = nil
        served.watch = watch
        return served
    }

    private static func listening(host: String?, port: String?) -> ListenOptions {
        var address = ListenAddressOptions()
        address.host = host
        address.port = port
        var listening = ListenOptions()
        listening.address = address
        listening.tlsCert = nil
        listening.tlsKey = nil
        listening.tlsSelfSigned = false
        return listening
    }

    private static func limits(threads: Int?, maxConnections: Int?, perIP: Int?) -> LimitOptions {
        let defaults = ServerOptions.defaults
        var limits = LimitOptions()
        limits.maxBodyBytes = defaults.maxBodyBytes
        limits.maxJsonBytes = defaults.maxJSONBytes
        limits.maxBufferedBytes = defaults.maxBufferedBytes
        limits.minBodyRate = defaults.minBodyBytesPerSecond
        limits.timeout = defaults.connectionTimeoutSeconds
        limits.maxConnections = maxConnections ?? defaults.maxConnections
        limits.maxConnectionsPerIp = perIP ?? defaults.maxConnectionsPerIP
        limits.headerTimeout = defaults.headerTimeoutSeconds
        limits.threads = threads
        return limits
    }

    private static func answers(cors: Bool) -> AnswerOptions {
        var forward = ForwardOptions()
        forward.proxyCaFile = nil
        forward.proxyTimeout = ForwardOptions.defaults.timeoutSeconds
        var answers = AnswerOptions()
        answers.delay = nil
        answers.maxDelay = Int(ServerOptions.defaults.maxDelayMilliseconds)
        answers.cors = cors
        answers.proxyUnmatched = nil
        answers.forward = forward
        return answers
    }

    private static func journal(quiet: Bool, format: RequestLogOptions.Format, verbose: Bool) -> JournalOptions {
        let defaults = ServerOptions.defaults
        var access = ServerAccessOptions()
        access.adminToken = nil
        access.quiet = quiet
        var journal = JournalOptions()
        journal.journalSize = defaults.journalCapacity
        journal.journalBytes = defaults.journalMaxBytes
        journal.maxSessions = defaults.maxSessions
        journal.sessionIdleTimeout = defaults.sessionIdleTimeoutSeconds
        journal.journalSecrets = false
        journal.redactHeaders = []
        journal.access = access
        journal.logFormat = format
        journal.verbose = verbose
        return journal
    }
}
