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

/// Left-aligned columns separated by two spaces.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
