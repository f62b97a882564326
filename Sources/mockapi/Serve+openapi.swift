import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIImport
import MockAPIServer

/// `serve --openapi`: a document served through a private import of it.
extension MockAPICommand.Serve {
    /// Whether `--contracts` or `--fixtures` was given: typed, or their values differ from what
    /// the defaults and variables make (a shell that sets MOCKAPI_CONTRACTS can still serve a document).
    var givesContractFolders: Bool {
        let typed = CommandLine.arguments.contains { argument in
            ["--contracts", "--fixtures"].contains { argument == $0 || argument.hasPrefix($0 + "=") }
        }
        func fallback(_ variable: String, _ value: String) -> String {
            EnvironmentVariable.nonEmpty(variable) ?? value
        }
        return typed || contractOptions.contracts != fallback("MOCKAPI_CONTRACTS", "contracts")
            || contractOptions.fixtures != fallback("MOCKAPI_FIXTURES", "fixtures")
    }

    /// The document imported, or its import error on stderr and exit code 2.
    static func importDocument(_ path: String) throws -> ServedDocument {
        do throws(ImportError) {
            return try ServedDocument(path: path)
        } catch {
            throw CommandFailure.unusable(error.description, command: "serve")
        }
    }

    /// Imports the document again on every change to it or a file it references, and serves the
    /// result; a document that no longer imports keeps the previous set serving.
    static func watch(_ document: ServedDocument, _ server: MockServer) -> FileWatcher {
        Output.log(.info, "mockapi: watching \(document.path) and the files its $refs reach for changes")
        let path = document.path
        return FileWatcher(files: { DocumentReferences.files(from: path) }) {
            do throws(ImportError) {
                try document.importAgain()
            } catch {
                server.reloadFailedElsewhere()
                Output.error("mockapi serve: \(error.description)\nmockapi: still serving the previous set")
                return
            }
            switch server.reload() {
            case .success(let set):
                Output.log(.info, "mockapi: reloaded (\(set.contracts.count) routes)")
            case .failure(let error):
                Output.error(error.description + "\nmockapi: still serving the previous set")
            }
        }
    }
}
