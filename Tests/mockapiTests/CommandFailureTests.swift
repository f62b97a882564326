import ArgumentParser
import MockAPICommandKit
import MockAPICore
import MockAPIServer
import Synchronization
import Testing

@testable import mockapi

/// The CLI's one failure type and its one options type, in process.
struct CommandFailureTests {
    /// What `Output` writes while `body` runs, by stream.
    private func captured(_ body: () -> Void) -> (stdout: String, stderr: String) {
        let text = Mutex((stdout: "", stderr: ""))
        Output.$write.withValue(
            { stream, line in
                text.withLock { if stream == .standardOutput { $0.stdout += line } else { $0.stderr += line } }
            }, operation: body)
        return text.withLock { $0 }
    }

    @Test func anUnusableInputIsOneLineOnStderrAndExitTwo() {
        var named: (any Error)?, bare: (any Error)?
        let output = captured {
            named = CommandFailure.translated(CommandFailure.unusable("cannot write out.json: no space", command: "export openapi"))
            bare = CommandFailure.translated(CommandFailure.unusable("port 8080 is in use"))
        }
        #expect(output.stderr == "mockapi export openapi: cannot write out.json: no space\nmockapi: port 8080 is in use\n")
        #expect(output.stdout == "")
        #expect((named as? ExitCode) == ExitCode(2))
        #expect((bare as? ExitCode) == ExitCode(2))
    }

    @Test func aUsageFailureIsArgumentParsersUsageErrorSaidByIt() {
        var translated: (any Error)?
        let output = captured { translated = CommandFailure.translated(CommandFailure.usage("--tls-cert and --tls-key go together")) }
        #expect(output.stderr == "")
        #expect((translated as? ValidationError)?.message == "--tls-cert and --tls-key go together")
        #expect(MockAPICommand.exitCode(for: translated!) == .validationFailure)
    }

    @Test func otherErrorsPassThrough() {
        #expect((CommandFailure.translated(ExitCode(1)) as? ExitCode) == ExitCode(1))
    }

    /// Every default of `serve` is the configuration's own: a default changed there changes the CLI.
    @Test func serveWithNoFlagsYieldsTheDefaultConfiguration() throws {
        let options = try ServerOptions.parse(["--quiet"])
        let configuration = try options.configuration(host: "127.0.0.1", tls: nil)
        let defaults = ServerConfiguration()
        let numbers: [KeyPath<ServerConfiguration, Int>] = [
            \.maxBodyBytes, \.maxJSONBytes, \.maxBufferedBytes, \.minBodyBytesPerSecond,
            \.connectionTimeoutSeconds, \.maxConnections, \.maxConnectionsPerIP, \.headerTimeoutSeconds, \.threads, \.journalCapacity, \.journalMaxBytes,
        ]
        #expect(numbers.map { configuration[keyPath: $0] } == numbers.map { defaults[keyPath: $0] })
        #expect(configuration.maxDelayMilliseconds == defaults.maxDelayMilliseconds)
        #expect(configuration.port == defaults.port && configuration.host == defaults.host)
        #expect(configuration.delay == nil && configuration.proxy == nil && configuration.adminToken == nil && !configuration.cors)
    }

    @Test func numericFlagsLandInTheConfiguration() throws {
        let options = try ServerOptions.parse([
            "--quiet", "--max-body-bytes", "2048", "--max-json-bytes", "1024", "--timeout", "5",
            "--threads", "3", "--journal-size", "7", "--max-delay", "900", "--delay", "200-800",
        ])
        #expect(throws: Never.self) { try options.check() }
        let configuration = try options.configuration(host: "::1", tls: nil)
        #expect(configuration.maxBodyBytes == 2048 && configuration.maxJSONBytes == 1024 && configuration.connectionTimeoutSeconds == 5)
        #expect(configuration.threads == 3 && configuration.journalCapacity == 7 && configuration.maxDelayMilliseconds == 900)
        #expect(configuration.delay?.largestMilliseconds == 800 && configuration.host == "::1")
    }

    @Test func aNumberOutOfRangeIsUnusableNamingTheFlag() throws {
        let options = try ServerOptions.parse(["--header-timeout", "5000000000"])
        #expect {
            try options.check()
        } throws: { error in
            guard case .unusable(let reason, nil) = error as? CommandFailure else { return false }
            return reason == "--header-timeout 5000000000 is out of range: 0 to 86400 seconds"
        }
    }
}
