import ArgumentParser
import Dispatch
import Foundation
import MockAPICommandKit
import MockAPICore
import Synchronization

extension MockAPICommand {
    /// A health check that needs no shell and no curl (a container image has neither): asks a
    /// running server's `/__mockapi/ready` or `/__mockapi/health` and exits 0 on 200, 1 otherwise.
    struct Probe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "probe",
            abstract: "Ask a running server whether it is ready (or alive): exit 0 on 200, 1 otherwise.",
            discussion: """
                Asks http://127.0.0.1:8080, or where $MOCKAPI_HOST and $MOCKAPI_PORT make serve listen (a wildcard \
                address such as 0.0.0.0 is asked on loopback); --url names another server. Needs neither the \
                admin token nor a loopback Host: the two endpoints answer anyone, with a status word only.

                Examples:
                  mockapi probe                     # 200 once the contract set is served
                  mockapi probe health --timeout 1  # 200 while the process answers
                  HEALTHCHECK CMD ["mockapi", "probe"]
                """)

        enum Check: String, ExpressibleByArgument, CaseIterable {
            case ready, health
        }

        @Argument(help: ArgumentHelp("ready: the contract set is loaded and the last reload did not fail; health: the process answers.", valueName: "ready|health"))
        var check: Check = .ready

        @Option(
            name: [.customLong("url"), .customLong("base-url")],
            help: ArgumentHelp("The server's base URL (default: http://127.0.0.1:8080, or $MOCKAPI_HOST and $MOCKAPI_PORT).", valueName: "url"))
        var url: String?

        // Text, taken as given: `--timeout -5` is a bad timeout, not a missing value.
        @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for the answer, connecting included.", valueName: "seconds"))
        var timeout = "3"

        func validate() throws {
            try CommandFailure.translating {
                _ = try timeoutSeconds()
                _ = try exchange()
            }
        }

        func run() throws {
            let exchange = try exchange()
            let shown = "http://\(exchange.hostHeader)\(exchange.target)"
            // The exchange bounds each socket call; this clock bounds the whole, name lookup included.
            let outcome = Mutex<ProbeExchange.Outcome?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                let result = exchange.run()
                outcome.withLock { $0 = result }
                done.signal()
            }.start()
            let finished = done.wait(timeout: .now() + exchange.timeoutSeconds + 0.05) == .success
            let result = finished ? outcome.withLock { $0 } : nil
            switch result ?? .failed("no answer within \(ProbeExchange.seconds(exchange.timeoutSeconds))") {
            case .answered(200, _, let body):
                Output.line("mockapi probe: \(shown): 200 \(Self.statusWord(body) ?? "")")
            case .answered(let status, let reason, let body):
                Output.error("mockapi probe: \(shown): \(status) \(Self.statusWord(body) ?? reason)")
                throw ExitCode(1)
            case .failed(let reason):
                Output.error("mockapi probe: \(shown): \(reason)")
                throw ExitCode(1)
            }
        }

        /// `{"status":"reload failed"}` → `reload failed`.
        static func statusWord(_ body: [UInt8]) -> String? {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["status"] as? String
        }

        private func timeoutSeconds() throws -> Double {
            guard let seconds = Double(timeout), seconds > 0, seconds <= 3600 else {
                throw CommandFailure.usage("--timeout must be seconds above 0, at most 3600 (it is \"\(timeout)\")")
            }
            return seconds
        }

        /// The request the flags and the environment ask for.
        private func exchange() throws -> ProbeExchange {
            let base = try url ?? Self.defaultURL()
            guard let components = URLComponents(string: base), components.scheme == "http", let host = components.host, !host.isEmpty else {
                throw CommandFailure.usage("--url must be an http:// URL such as http://127.0.0.1:8080 (it is \"\(base)\")")
            }
            let port = components.port ?? 80
            guard (1...65535).contains(port) else { throw CommandFailure.usage("--url \"\(base)\": the port must be 1 to 65535") }
            let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            let named = bare.contains(":") ? "[\(bare)]" : bare
            let path = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
            return ProbeExchange(
                host: bare, port: UInt16(port), target: "\(path)/__mockapi/\(check.rawValue)",
                hostHeader: components.port == nil ? named : "\(named):\(port)", timeoutSeconds: try timeoutSeconds())
        }

        /// Where `serve` listens by the same environment: `MOCKAPI_HOST` (a wildcard address is
        /// reached on loopback) and `MOCKAPI_PORT`, read as `serve` reads them.
        static func defaultURL() throws -> String {
            let options = try ListenAddressOptions.parse([])
            let port = try options.listenPort()
            guard port != 0 else { throw CommandFailure.usage("MOCKAPI_PORT is 0 (a free port chosen at start): give the server's --url") }
            let host: String
            switch options.listenHost.lowercased() {
            // `::` takes IPv4 too (dual stack), and a container may have no IPv6 loopback.
            case "0.0.0.0", "::", "[::]", "localhost": host = "127.0.0.1"
            case let literal where literal.contains(":") && !literal.hasPrefix("["): host = "[\(literal)]"
            case let named: host = named
            }
            return "http://\(host):\(port)"
        }
    }
}
