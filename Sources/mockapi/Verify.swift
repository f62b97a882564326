import ArgumentParser
import ClientKit
import ExampleAPIChecks
import Foundation
import MockAPICore
import MockAPIVerify

extension MockAPICommand {
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fire every route of the bundled client at the server and check it against the contracts.",
            discussion: "Exit status: 0 when every check holds, 1 when any fails, 2 when the inputs are unusable."
        )

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

        @OptionGroup var contractOptions: ContractOptions

        @Option(help: "Check a running `mockapi serve` at this URL instead of starting one in-process.")
        var baseURL: String?

        @Option(help: "Report format on stdout: text or json.")
        var format = Format.text

        @Option(help: "Also write a JUnit XML report to this file.")
        var junit: String?

        @Flag(help: "Fail on contracts no route exercises and on fixture keys the models never read.")
        var strict = false

        func run() async throws {
            let set = try contractOptions.load()
            var target: URL?
            if let baseURL {
                guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    Output.error("mockapi verify: --base-url \"\(baseURL)\" is not an http(s) URL")
                    throw ExitCode(2)
                }
                target = url
            }
            let runner = ContractRunner(set: set, checks: RouteCheck.all(RouteKind.self), strict: strict)
            let report: VerifyReport
            do {
                if let target { report = try await runner.run(against: target) } else { report = try await runner.run() }
            } catch let unusable as ContractRunner.Unusable {
                Output.error("mockapi verify: \(unusable.description)")
                throw ExitCode(2)
            }
            switch format {
            case .text: Output.line(TextReport.render(report, color: isatty(STDOUT_FILENO) == 1))
            case .json: Output.line(JSONReport.render(report))
            }
            if let junit {
                do { try Data(JUnitReport.render(report).utf8).write(to: URL(fileURLWithPath: junit)) } catch {
                    Output.error("mockapi verify: cannot write \(junit): \(error.localizedDescription)")
                    throw ExitCode(2)
                }
            }
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        }
    }
}
