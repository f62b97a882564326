import ArgumentParser
import Foundation
import MockAPIBackend
import MockAPICommandKit
import MockAPICore

extension MockAPICommand {
    struct VerifyBackend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify-backend",
            abstract: "Send each contract's request to a real backend and check the answer is what the mock promises.",
            discussion: """
                For every contract: the request from its request.example (or values the contract allows), sent to \
                --base-url; the answer must have a status the contract declares, that response's content type, and its \
                fixture's shape (keys, JSON types, nulls, array elements), and the protocol headers it declares \
                (Location, Set-Cookie, Content-Range, ETag, WWW-Authenticate: present, values not compared). No \
                redirect is followed and no proxy used. A declared error (a 404) where the mock \
                answers with success is retried with an id from the success fixture or the set's GET list, else \
                reported NOT REACHED, never passed. GET, HEAD and OPTIONS only, unless --allow-writes. Exit 1 when \
                a contract fails or is not reached, 2 when the backend does not answer.
                """
        )

        @OptionGroup var contractOptions: ContractOptions

        @Option(help: "The real backend: https://staging.example.com (paths are appended to it).")
        var baseURL: String

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "Send this header with every request, e.g. \"Authorization: token $API_TOKEN\" (repeatable; $MOCKAPI_BACKEND_AUTHORIZATION sets Authorization). "
                    + "Given twice with two schemes (Basic, token), each request gets the one its contract or the backend's 401 challenge names.",
                valueName: "name: value"))
        var headers: [String] = []

        @Flag(help: "Also send POST, PUT, PATCH and DELETE requests (they may change the backend's data).")
        var allowWrites = false

        @Option(name: .customLong("contract"), help: "Check only this contract (repeatable).")
        var contracts: [String] = []

        @Option(parsing: .unconditional, help: "Requests in flight at once (1 to 64).")
        var concurrency = 4

        @Option(parsing: .unconditional, help: "Seconds one exchange may take, answer read whole (1 to 600).")
        var timeout = 10

        @OptionGroup var report: ReportOptions

        func validate() throws {
            try CommandFailure.translating {
                let concurrencies = NumberRange(1, 64, ""), timeouts = NumberRange(1, 600, "seconds")
                guard concurrencies.contains(Double(concurrency)) else { throw CommandFailure.usage(concurrencies.refusal("--concurrency \(concurrency)")) }
                guard timeouts.contains(Double(timeout)) else { throw CommandFailure.usage(timeouts.refusal("--timeout \(timeout)")) }
                for header in headers where !header.contains(":") { throw CommandFailure.usage("--header \"\(header)\" is not \"Name: value\"") }
            }
        }

        func run() async throws {
            guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw CommandFailure.unusable("--base-url \"\(baseURL)\" is not an http(s) URL", command: "verify-backend")
            }
            let set = try contractOptions.load()
            let unknown = contracts.filter { name in !set.contracts.contains { $0.name == name } }
            if !unknown.isEmpty {
                throw CommandFailure.unusable("--contract names no contract in \(contractOptions.contracts): \(unknown.joined(separator: ", "))", command: "verify-backend")
            }
            var options = BackendOptions()
            options.headers = headers.map { header in
                let colon = header.firstIndex(of: ":")!
                return HTTPField(String(header[..<colon]).trimmingCharacters(in: .whitespaces), String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            }
            if let authorization = EnvironmentVariable.nonEmpty("MOCKAPI_BACKEND_AUTHORIZATION"),
                !options.headers.contains(where: { $0.name.lowercased() == "authorization" })
            {
                options.headers.append(HTTPField("Authorization", authorization))
            }
            options.secrets = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("MOCKAPI_SECRET_") }
            options.allowWrites = allowWrites
            options.concurrency = concurrency
            options.timeout = TimeInterval(timeout)
            options.contracts = contracts
            let result: BackendReport
            do {
                result = try await BackendVerifier(set: set, baseURL: url, options: options).run()
            } catch {
                throw CommandFailure.unusable("\(error)", command: "verify-backend")
            }
            try report.emit(
                command: "verify-backend", text: { BackendReportRendering.text(result) }, json: { BackendReportRendering.json(result) },
                junit: { BackendReportRendering.junit(result) })
            if result.exitCode != 0 { throw ExitCode(result.exitCode) }
        }
    }
}
