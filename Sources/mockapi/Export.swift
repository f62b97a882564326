import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIImport

extension MockAPICommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Describe the contract set in another format.",
            subcommands: [ExportOpenAPI.self]
        )
    }

    struct ExportOpenAPI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openapi",
            abstract: "Write the contract set as an OpenAPI 3.1 document (JSON) to stdout or --out."
        )

        @OptionGroup var contractOptions: ContractOptions

        @Option(help: "File to write instead of stdout.")
        var out: String?

        @Option(help: "The document's info.title.")
        var title = "mockapi contracts"

        func run() throws {
            let set = try contractOptions.load()
            let text = OpenAPIExporter(title: title).document(for: set).prettySerialized + "\n"
            guard let out else {
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: out))
            } catch {
                throw CommandFailure.unusable("cannot write \(out): \(error.localizedDescription)", command: "export openapi")
            }
            let paths = Set(set.contracts.map { OpenAPIExporter.openAPIPath($0.request.path) }).count
            // Contracts that share a method and path (told apart by `match`) are one operation.
            let operations = set.contracts.count - set.routes.discriminated.values.reduce(0) { $0 + $1.count - 1 }
            Output.line("mockapi export openapi: \(operations) operations on \(paths) paths written to \(out)")
        }
    }
}
