import ArgumentParser
import MockAPIVerifyCommand
import MockAPICore

extension MockAPICommand {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check contracts and fixtures without serving (exit 0 when usable, 2 otherwise)."
        )

        @OptionGroup var contractOptions: ContractOptions

        func run() throws {
            let set = try contractOptions.load()
            let responses = set.contracts.reduce(0) { $0 + $1.responses.count }
            let fixtures = Set(set.contracts.flatMap { $0.responses.compactMap(\.fixture) }).count
            for file in UnreferencedFixtures.find(in: set) {
                Output.error("warning: \(set.fixturesDirectory)/\(file): no contract references this fixture")
            }
            Output.line("\(set.contractsDirectory): \(set.contracts.count) contracts, \(responses) responses, \(fixtures) fixtures: usable")
        }
    }
}
