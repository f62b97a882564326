import ArgumentParser
import Foundation
import MockAPICore
import MockAPIImport
import MockAPIServer
import MockAPIVerifyCommand

extension MockAPICommand {
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Proxy to a real API and write contracts and fixtures from the traffic (on stop, or POST /__mockapi/record/save)."
        )

        @Option(help: ArgumentHelp("The real API: http(s)://host[:port], optionally with a path prefix.", valueName: "url"))
        var target: String

        @Option(help: "Address to listen on (an IPv4 or IPv6 literal, or localhost).")
        var host = "127.0.0.1"

        // Text, taken as given: `--port -1` is a bad port, not a missing value (as serve's).
        @Option(name: [.short, .long], parsing: .unconditional, help: "Port to listen on; 0 picks a free one.")
        var port = "8080"

        @Option(help: "Folder to write contracts/ and fixtures/ into.")
        var out = "recorded"

        @Flag(help: "Replace existing contracts/ and fixtures/ folders under --out.")
        var force = false

        @Option(help: ArgumentHelp("PEM file of the CAs to trust for an HTTPS target (default: the system's).", valueName: "file"))
        var caFile: String?

        @Option(parsing: .unconditional, help: "Seconds a request to the target may take before the client gets 504.")
        var timeout = 30

        @Option(help: "Admin endpoints (/__mockapi/) need the header Mockapi-Admin-Token with this value.")
        var adminToken: String?

        @Flag(help: "No per-request log lines on stderr.")
        var quiet = false

        func validate() throws {
            try CommandFailure.translating {
                try BackendURL.check(target, flag: "--target", caFile: caFile, caFlag: "--ca-file")
                guard UInt16(port) != nil else { throw CommandFailure.usage("--port must be 0 to 65535 (it is \"\(port)\")") }
                let timeouts = NumberRange(1, 3600, "seconds")
                guard timeouts.contains(Double(timeout)) else { throw CommandFailure.usage(timeouts.refusal("--timeout \(timeout)")) }
            }
        }

        func run() throws {
            StopSignals.startWatching()
            let host: String
            do { host = try ListenAddress.resolve(self.host) } catch { throw CommandFailure.unusable(error.description) }
            var proxy = ProxyConfiguration(target: target, caFile: caFile)
            let recording = Recording(output: URL(fileURLWithPath: out), force: force, target: proxy.target)
            proxy.timeoutSeconds = timeout
            proxy.identityEncoding = true
            proxy.observer = { recording.add($0) }
            var configuration = ServerConfiguration()
            configuration.host = host
            configuration.port = UInt16(port)! // checked in validate()
            configuration.proxy = proxy
            configuration.adminToken = adminToken
            configuration.adminActions["POST /__mockapi/record/save"] = { recording.saveResponse() }
            configuration.requestLog = quiet ? nil : RequestLog(options: RequestLogOptions(format: .text, color: TerminalColor.allowed(on: STDERR_FILENO), verbose: false))
            let server: MockServer
            do {
                server = try MockServer(set: .empty(named: "recording"), configuration: configuration)
            } catch {
                throw CommandFailure.unusable(error.description)
            }
            StopSignals.beginServing()
            Output.line("mockapi listening on \(server.baseURL) (recording \(proxy.target) into \(out))")
            let received = StopSignals.wait()
            server.stop()
            switch recording.save() {
            case .success(let summary):
                Output.line("mockapi record: \(summary)")
            case .failure(let error) where recording.count > 0:
                throw CommandFailure.unusable(error.description, command: "record")
            case .failure(let error):
                // Nothing recorded, nothing lost: the run still ends well.
                Output.error("mockapi record: \(error.description)")
            }
            Output.error("mockapi: \(received), stopped")
        }
    }
}
