import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIServer

extension MockAPICommand {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            // Only when `Serve` is parsed as a root (`ServeFastParse`) does ArgumentParser read this:
            // it then skips its `--generate-completion-script` check, which builds two more parsers
            // (that flag goes to the root parse anyway), and would name the command `mockapi serve`.
            _superCommandName: "mockapi",
            abstract: "Serve the contract set over HTTP until SIGINT or SIGTERM.",
            discussion: """
                The first stdout line is `mockapi listening on URL (N routes)`; each request is logged on stderr.

                Examples:
                  mockapi serve                          ./contracts on 127.0.0.1:8080
                  mockapi serve --watch --port 0         reload on edits; a free port
                  mockapi serve --openapi openapi.yaml   an OpenAPI document as it is
                  mockapi serve --delay 200-800 --cors   slow answers a web page can read
                  mockapi serve --host 0.0.0.0 --admin-token "$TOKEN"
                                                         reachable from a phone
                  mockapi serve --log-format json        every stderr line a JSON object
                """
        )

        @OptionGroup(title: "What to serve") var served: ServedSetOptions

        // The served set's flags by their own names, as the rest of the command reads them.
        var contractOptions: ContractOptions { served.contractOptions }
        var openapi: String? { served.openapi }
        var watch: Bool { served.watch }

        @OptionGroup var options: ServerOptions

        /// Off while `ServeFastParse` parses (on the main thread, before anything else runs): it
        /// runs `check()` itself, quietly, so a line that fails and goes to the root parse is said once.
        nonisolated(unsafe) static var validatesWhenParsed = true

        func validate() throws {
            guard Self.validatesWhenParsed else { return }
            // From the first message on: a log collector reading JSON gets no plain line.
            Output.errorsAsJSON = options.journal.logFormat == .json
            try CommandFailure.translating(check)
        }

        /// Every flag against its rule, untranslated: `CommandFailure`s, nothing printed.
        func check() throws {
            if openapi != nil, givesContractFolders {
                throw CommandFailure.unusable("--openapi serves the document itself; it cannot be used with --contracts or --fixtures")
            }
            try options.check()
        }

        func run() throws {
            // Before loading, which can take long for a big set: Ctrl-C must work during it too.
            StopSignals.startWatching()
            let document = try openapi.map(Self.importDocument)
            defer { document?.remove() }
            var contractOptions = contractOptions
            if let document {
                contractOptions.contracts = document.contracts
                contractOptions.fixtures = document.fixtures
            }
            let set = try contractOptions.load()
            let host = try options.listening.address.resolvedHost()

            let tls = try options.loadTLS()
            defer { tls?.generated?.remove() }

            var configuration = try options.configuration(host: host, tls: tls?.credentials)
            configuration.reloadSource = (contractOptions.contracts, contractOptions.fixtures)

            let server: MockServer
            do {
                server = try MockServer(set: set, configuration: configuration)
            } catch {
                throw CommandFailure.unusable(error.description)
            }
            StopSignals.beginServing()
            // Watching before the listening line: a client that edits once it reads that line is seen.
            let stopWatching: (() -> Void)?
            if !watch {
                stopWatching = nil
            } else if let document {
                stopWatching = Self.watch(document, server).stop
            } else {
                stopWatching = watchForChanges(server, contractOptions).stop
            }
            let listening = "mockapi listening on \(server.baseURL) (\(set.contracts.count) routes\(server.listensOnIPv4AndIPv6 ? ", IPv4 and IPv6" : ""))"
            Output.line(listening)
            // Stdout's line is what scripts wait for; a JSON log says it too, for whoever reads only the log.
            if options.journal.logFormat == .json { Output.log(.info, listening) }
            if let generated = tls?.generated {
                Output.line("mockapi: self-signed certificate for localhost and 127.0.0.1 (30 days, removed at exit): \(generated.certificate.path)")
            }
            if !AdminAccess.isLoopback(host) {
                Output.error(
                    "mockapi: warning: listening on \(host), beyond loopback: anyone who can reach this machine can use the mock; "
                        + (configuration.adminToken == nil ? "admin endpoints are off without --admin-token" : "admin endpoints need Mockapi-Admin-Token"))
            }
            if server.connectionLimit < configuration.maxConnections {
                Output.error(
                    "mockapi: warning: the descriptor limit (ulimit -n \(DescriptorBudget.softLimit)) leaves room for \(server.connectionLimit) connections, "
                        + "not --max-connections \(configuration.maxConnections); further clients wait until one closes")
            }
            let received = StopSignals.wait()
            stopWatching?()
            server.stop()
            Output.log(.info, "mockapi: \(received), stopped")
        }

        /// Reloads on every change under the contract and fixture folders, saying what happened.
        private func watchForChanges(_ server: MockServer, _ contractOptions: ContractOptions) -> FileWatcher {
            Output.log(.info, "mockapi: watching \(contractOptions.contracts)/ and \(contractOptions.fixtures)/ for changes")
            return FileWatcher(folders: [contractOptions.contracts, contractOptions.fixtures]) {
                switch server.reload() {
                case .success(let set):
                    Output.log(.info, "mockapi: reloaded (\(set.contracts.count) routes)")
                case .failure(let error):
                    Output.error(error.description + "\nmockapi: still serving the previous set")
                }
            }
        }
    }
}

/// What `serve` serves: a contract set, or an OpenAPI document; and whether edits reload it.
struct ServedSetOptions: ParsableArguments {
    @OptionGroup var contractOptions: ContractOptions

    @Option(
        help: ArgumentHelp(
            "Serve this OpenAPI 3.0/3.1 document (JSON or YAML) instead of a contract set: it is imported at start, its warnings printed; with --watch, an edit to it or to a file its $refs reach is imported again.",
            valueName: "file"))
    var openapi: String?

    @Flag(help: "Reload the set when a contract or fixture changes, or the --openapi document (a broken edit keeps the previous set serving).")
    var watch = false
}
