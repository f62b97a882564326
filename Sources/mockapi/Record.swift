import ArgumentParser
import Foundation
import MockAPICommandKit
import MockAPICore
import MockAPIImport
import MockAPIServer

extension MockAPICommand {
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Proxy to a real API and write contracts and fixtures from the traffic (on stop, or POST /__mockapi/record/save)."
        )

        @Option(help: ArgumentHelp("The real API: http(s)://host[:port], optionally with a path prefix.", valueName: "url"))
        var target: String

        @OptionGroup var address: ListenAddressOptions

        @Option(help: "Folder to write contracts/ and fixtures/ into.")
        var out = "recorded"

        @Flag(help: "Replace existing contracts/ and fixtures/ folders under --out.")
        var force = false

        /// What `--max-recorded-body-bytes` may be: up to what a whole recording keeps.
        static let recordedBodyBytes = NumberRange(0, Double(Recording.maxBytes), "bytes")

        @Option(
            parsing: .unconditional,
            help: "Bytes of each answer body kept for its fixture; the client still gets the whole body, and a fixture cut short is named on stderr and in the save's summary."
        )
        var maxRecordedBodyBytes = ProxyConfiguration(target: "").maxRecordedBodyBytes

        @OptionGroup var forward: ForwardOptions
        @OptionGroup var access: ServerAccessOptions
        @OptionGroup var redaction: RedactKeyOptions
        @OptionGroup var renamed: RenamedRecordOptions

        mutating func validate() throws {
            try CommandFailure.translating {
                renamed.apply(to: &forward)
                try forward.check(backend: target, flag: "--target")
                guard Self.recordedBodyBytes.contains(Double(maxRecordedBodyBytes)) else {
                    throw CommandFailure.unusable(Self.recordedBodyBytes.refusal("--max-recorded-body-bytes \(maxRecordedBodyBytes)"))
                }
                _ = try address.listenPort()
                try access.check()
            }
        }

        func run() throws {
            StopSignals.startWatching()
            let host = try address.resolvedHost()
            var proxy = forward.proxy(to: target)
            let recording = Recording(output: URL(fileURLWithPath: out), force: force, target: proxy.target, credentials: redaction.credentials)
            proxy.identityEncoding = true
            proxy.maxRecordedBodyBytes = maxRecordedBodyBytes
            proxy.observer = { recording.observe($0) }
            var configuration = ServerConfiguration()
            configuration.host = host
            configuration.port = try address.listenPort()
            configuration.proxy = proxy
            configuration.adminToken = access.adminToken
            configuration.adminActions["POST /__mockapi/record/save"] = { recording.saveResponse() }
            configuration.requestLog = access.quiet ? nil : RequestLog(options: RequestLogOptions(format: .text, color: TerminalColor.allowed(on: STDERR_FILENO), verbose: false))
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

/// `record`'s spellings before 0.x named the forwarding settings as `serve` does not: hidden
/// aliases of `--proxy-timeout` and `--proxy-ca-file`, kept for one release (see CHANGELOG).
struct RenamedRecordOptions: ParsableArguments {
    @Option(name: .customLong("timeout"), parsing: .unconditional, help: .hidden)
    var timeout: Int?

    @Option(name: .customLong("ca-file"), help: .hidden)
    var caFile: String?

    /// The old spellings' values set on `forward`, each said once as renamed.
    func apply(to forward: inout ForwardOptions) {
        if let timeout {
            Output.error("mockapi record: warning: --timeout is now --proxy-timeout; the old name goes in the next release")
            forward.proxyTimeout = timeout
        }
        if let caFile {
            Output.error("mockapi record: warning: --ca-file is now --proxy-ca-file; the old name goes in the next release")
            forward.proxyCaFile = caFile
        }
    }
}
