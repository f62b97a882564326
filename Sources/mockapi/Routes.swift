import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore

extension MockAPICommand {
    struct Routes: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "routes", abstract: "Print the route table: method, path template, contract, file.")

        @OptionGroup var contractOptions: ContractOptions

        @Option(help: "Output on stdout: text (a table), or json (an array, as GET /__mockapi/routes answers).")
        var format = ReportOptions.Format.text

        func run() throws {
            let set = try contractOptions.load()
            let listings = RouteListing.all(in: set)
            let routes = set.contracts.indices
                .sorted { (set.contracts[$0].request.path.text, set.contracts[$0].request.method) < (set.contracts[$1].request.path.text, set.contracts[$1].request.method) }
                .map { listings[$0] }
            switch format {
            case .text:
                let rows = routes.map { [$0.method, $0.path, $0.contract, $0.file] }
                Output.line(TextTable.render(header: ["METHOD", "PATH", "CONTRACT", "FILE"], rows: rows))
            case .json:
                Output.line(JSONDocument.pretty(routes))
            }
        }
    }
}
