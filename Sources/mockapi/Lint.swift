import ArgumentParser
import MockAPICore
import MockAPIVerify
import MockAPIVerifyCommand

extension MockAPICommand {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check contracts and fixtures without serving (exit 0 when usable, 2 otherwise)."
        )

        @OptionGroup var contractOptions: ContractOptions

        @Flag(help: "Fail (exit 1) on any warning: a fixture no contract references, an API link no contract serves.")
        var strict = false

        func run() throws {
            let set = try contractOptions.load()
            let responses = set.contracts.reduce(0) { $0 + $1.responses.count }
            let fixtures = Set(set.contracts.flatMap { $0.responses.compactMap(\.fixture) }).count
            var warnings = 0
            for file in UnreferencedFixtures.find(in: set) {
                Output.error("warning: \(set.fixturesDirectory)/\(file): no contract references this fixture")
                warnings += 1
            }
            // A next-page or related-resource link the app would follow into a 404.
            for link in DeadLink.find(in: set) {
                Output.error("warning: \(link.description)")
                warnings += 1
            }
            Output.line("\(set.contractsDirectory): \(set.contracts.count) contracts, \(responses) responses, \(fixtures) fixtures: usable")
            if strict && warnings > 0 {
                Output.error("mockapi lint: \(warnings) warning\(warnings == 1 ? "" : "s") under --strict")
                throw ExitCode(1)
            }
        }
    }
}
