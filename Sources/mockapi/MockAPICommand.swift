import ArgumentParser
import Dispatch
import ExampleAPIChecks
import MockAPIVerifyCommand
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct MockAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockapi",
        abstract: "A mock API server and contract-test harness for Swift API clients.",
        subcommands: [Serve.self, VerifyCommand.self, CoverageCommand.self, Lint.self, Routes.self, Import.self, Export.self]
    )
}

@main
enum Entry {
    /// `serve` runs on the main thread with SIGINT/SIGTERM blocked from the first instruction,
    /// so every thread libmicrohttpd starts inherits the mask and `StopSignals`' own `sigwait`
    /// thread is the only place they land. The other commands take the async path.
    static func main() {
        guard CommandLine.arguments.dropFirst().first == "serve" else {
            VerifyCommand.use(checks: { _ in BundledClientChecks.all })
            Task {
                await MockAPICommand.main()
                exit(0)
            }
            dispatchMain()
        }
        StopSignals.blockInThisThread()
        do {
            var command = try MockAPICommand.parseAsRoot()
            try command.run()
            exit(0)
        } catch {
            MockAPICommand.exit(withError: error)
        }
    }
}
