import ArgumentParser
import MockAPICommandKit
import MockAPICore
import MockAPIVerify

extension MockAPICommand {
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check contracts and fixtures without serving (exit 0 when usable, 2 otherwise)."
        )

        @OptionGroup var contractOptions: ContractOptions

        @Flag(help: "Fail (exit 1) on any warning: a fixture no contract references, an API link no contract serves, a fixture its schema does not allow.")
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
            // A fixture its own `schema` does not allow: one of the two is wrong, and variants drawn from it would be too.
            for mismatch in ShapeMismatch.find(in: set) {
                Output.error("warning: \(mismatch.description)")
                report.warnings.append(.init(kind: .shapeMismatch, file: mismatch.source, jsonPath: mismatch.jsonPath, message: mismatch.message))
            }
            // A next-page or related-resource link the app would follow into a 404. One line per
            // link, however many fixtures carry it (a real set had 526 places for 34 links); the
            // JSON report lists every place.
            let deadLinks = DeadLink.find(in: set)
            let deadLinkLines = DeadLinkGroup.grouping(deadLinks)
            for group in deadLinkLines { Output.error("warning: \(group.description)") }
            for link in deadLinks {
                report.warnings.append(.init(kind: .deadLink, file: link.source, jsonPath: link.jsonPath, url: link.url, message: link.reason))
            }
            // Counted as printed: one per dead link, not per place.
            let warnings = report.warnings.count - deadLinks.count + deadLinkLines.count
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

/// The places that carry one dead link (the same URL, dead for the same reason), for lint's one
/// line per link.
struct DeadLinkGroup {
    var first: DeadLink
    var places: Int

    /// `links` grouped by URL and reason, in the order each first appears.
    static func grouping(_ links: [DeadLink]) -> [DeadLinkGroup] {
        var groups: [DeadLinkGroup] = []
        var index: [String: Int] = [:]
        for link in links {
            let key = link.url + "\u{0}" + link.reason
            if let at = index[key] {
                groups[at].places += 1
            } else {
                index[key] = groups.count
                groups.append(DeadLinkGroup(first: link, places: 1))
            }
        }
        return groups
    }

    /// The link's one place as before; for several, the link first, then how many and the first.
    var description: String {
        guard places > 1 else { return first.description }
        return "\(first.url): \(first.reason) (in \(places) places; the first \(first.source): \(first.jsonPath))"
    }
}
