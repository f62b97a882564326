import ArgumentParser
import ExampleAPIChecks
import MockAPIVerify
import MockAPIVerifyCommand

extension MockAPICommand {
    /// `mockapi verify`: `VerifyCommand`'s flags and help, run with the bundled example client's
    /// checks, passed in (a team's gate passes its own to `VerifyCommand.main(checks:)`).
    struct Verify: AsyncParsableCommand {
        static let configuration = VerifyCommand.configuration

        /// `mockapi verify` pointed at a team's own contracts: its bundled routes claim none of them.
        static let foreignSetHint =
            "this command runs the bundled example client, whose routes claim none of these contracts: "
            + "check your own client with your gate (VerifyCommand.main(checks:)) or, for any client, with mockapi coverage"

        @OptionGroup var command: VerifyCommand

        func run() async throws {
            // The decoding child is this executable again: only when it is `mockapi verify` itself,
            // not a test process that parsed the command (it would be started with these arguments).
            let isThisProcessesCommand = CommandLine.arguments.dropFirst().first == "verify"
            try await command.run(
                checks: { _ in BundledClientChecks.all }, deepLinks: BundledClientChecks.deepLinks, foreignSetHint: Self.foreignSetHint,
                decodingChild: isThisProcessesCommand ? .thisExecutable() : nil)
        }
    }
}
