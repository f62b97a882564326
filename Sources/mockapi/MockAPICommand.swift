import ArgumentParser
import Dispatch
import Foundation
import MockAPICommandKit
import MockAPIVerifyCommand

struct MockAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockapi",
        abstract: "A mock API server and contract-test harness for Swift API clients.",
        version: MockAPIVersion.line,
        // Each names itself (`commandName`): without it ArgumentParser derives the name from
        // `String(describing:)` of the type, whose casts scan the binary's 6,700 protocol
        // conformances anew for every command, at every start (`Entry.main` asks all of them).
        subcommands: [
            Serve.self, Verify.self, CoverageCommand.self, Lint.self, Routes.self, Import.self, Export.self, Diff.self,
            VerifyBackend.self, Record.self, Probe.self,
        ]
    )
}

@main
enum Entry {
    /// `serve` (and `record`, a server too) runs on the main thread with SIGINT/SIGTERM blocked from the first instruction,
    /// so every thread libmicrohttpd starts inherits the mask and `StopSignals`' own `sigwait`
    /// thread is the only place they land. The other commands take the async path.
    static func main() {
        let commands = MockAPICommand.configuration.subcommands.map { $0._commandName } + ["help"]
        if let unknown = UnknownCommand.message(for: CommandLine.arguments.dropFirst().first, known: commands) {
            FileHandle.standardError.write(Data((unknown + "\n").utf8))
            exit(ExitCode.validationFailure.rawValue) // 64, as for any other usage error
        }
        guard ["serve", "record"].contains(CommandLine.arguments.dropFirst().first) else {
            Task {
                do {
                    var command = try MockAPICommand.parseAsRoot()
                    if var asynchronous = command as? any AsyncParsableCommand { try await asynchronous.run() } else { try command.run() }
                    exit(0)
                } catch {
                    finish(error)
                }
            }
            dispatchMain()
        }
        StopSignals.blockInThisThread()
        do {
            // A plain `serve` line skips the root's parse (a third of a start's CPU); see `ServeFastParse`.
            let fast = CommandLine.arguments.dropFirst().first == "serve" ? ServeFastParse.serve(Array(CommandLine.arguments.dropFirst(2))) : nil
            var command: any ParsableCommand = try fast ?? MockAPICommand.parseAsRoot()
            try command.run()
            exit(0)
        } catch {
            finish(error)
        }
    }

    /// Every command's failure leaves here: said and exited with as `CommandFailure` decides.
    private static func finish(_ error: any Error) -> Never {
        MockAPICommand.exit(withError: CommandFailure.translated(error))
    }
}
