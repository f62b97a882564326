import ArgumentParser

@main
struct MockAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockapi",
        abstract: "A mock API server and contract-test harness for Swift API clients.",
        subcommands: [Serve.self, Verify.self, Lint.self, Routes.self]
    )
}
