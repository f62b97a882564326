import ArgumentParser

extension MockAPICommand {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fire every route of the bundled client at the server and check the contracts.")

        func run() throws {
            Output.error("mockapi verify: not built yet")
            throw ExitCode(2)
        }
    }
}
