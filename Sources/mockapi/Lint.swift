import ArgumentParser
import MockAPICommandKit
import MockAPICore
import MockAPIVerify

extension MockAPICommand {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check contracts and fixtures without serving (exit 0 when usable, 2 otherwise)."
        )

        @OptionGroup var contractOptions: ContractOptions

        @Flag(help: "Fail (exit 1) on any warning: a fixture no contract references, an API link no contract serves.")
        var strict = false

        @Option(help: "Output on stdout: text (one summary line), or json (the whole report; stderr is unchanged).")
        var format = ReportOptions.Format.text

        func run() throws {
            var report = LintReport(
                contracts: contractOptions.contracts, fixtures: contractOptions.fixtures, usable: false, summary: nil, problems: [],
                warnings: [], exitCode: 0)
            let set: ContractSet
            do {
                set = try contractOptions.loadSet()
            } catch {
                report.problems = error.problems.map(LintReport.Problem.init)
                report.exitCode = 2
                throw CommandFailure.unusableAsSaid(stderr: error.description, stdout: format == .json ? report.json : nil)
            }
            report.usable = true
            (report.contracts, report.fixtures) = (set.contractsDirectory, set.fixturesDirectory)
            report.summary = LintReport.Summary(
                contracts: set.contracts.count, responses: set.contracts.reduce(0) { $0 + $1.responses.count },
                fixtures: Set(set.contracts.flatMap { $0.responses.compactMap(\.fixture) }).count)
            for file in UnreferencedFixtures.find(in: set) {
                let message = "no contract references this fixture"
                Output.error("warning: \(set.fixturesDirectory)/\(file): \(message)")
                report.warnings.append(.init(kind: .unreferencedFixture, file: "\(set.fixturesDirectory)/\(file)", message: message))
            }
            // A next-page or related-resource link the app would follow into a 404.
            for link in DeadLink.find(in: set) {
                Output.error("warning: \(link.description)")
                report.warnings.append(.init(kind: .deadLink, file: link.source, jsonPath: link.jsonPath, url: link.url, message: link.reason))
            }
            let warnings = report.warnings.count
            report.exitCode = strict && warnings > 0 ? 1 : 0
            switch format {
            case .text:
                let summary = report.summary!
                Output.line("\(set.contractsDirectory): \(summary.contracts) contracts, \(summary.responses) responses, \(summary.fixtures) fixtures: usable")
            case .json:
                Output.line(report.json)
            }
            if report.exitCode != 0 {
                Output.error("mockapi lint: \(warnings) warning\(warnings == 1 ? "" : "s") under --strict")
                throw ExitCode(1)
            }
        }
    }
}
