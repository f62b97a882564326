import ArgumentParser
import Foundation
import MockAPICore
import MockAPIVerifyCommand

extension MockAPICommand {
    struct Routes: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the route table: method, path template, contract, file.")

        @OptionGroup var contractOptions: ContractOptions

        func run() throws {
            let set = try contractOptions.load()
            let rows = set.contracts
                .sorted { ($0.request.path.text, $0.request.method) < ($1.request.path.text, $1.request.method) }
                .map { [$0.request.method.rawValue, $0.request.path.text, $0.name, "\(set.contractsDirectory)/\($0.file)"] }
            Output.line(TextTable.render(header: ["METHOD", "PATH", "CONTRACT", "FILE"], rows: rows))
        }
    }
}
