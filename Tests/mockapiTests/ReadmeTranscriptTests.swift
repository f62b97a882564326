import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

/// The documentation's shell transcripts whose output can be reproduced (README.md and docs/*.md,
/// found by their `$ command` line in whichever page holds them), compared with a real run of the
/// binary: a line that no longer matches the command fails here. Ports, timings and temporary
/// paths are normalised on both sides; a documented line `…` (indented or not) stands for any lines.
@Suite struct ReadmeTranscriptTests {
    /// Where the `occurrence`-th `$ command` line is, counting through the pages in order.
    static func location(_ command: String, occurrence: Int = 1) -> (page: Documentation.Page, line: Int)? {
        let found = Documentation.pages.flatMap { page in page.lines.indices.filter { page.lines[$0] == "$ \(command)" }.map { (page, $0) } }
        return found.count >= occurrence ? found[occurrence - 1] : nil
    }

    /// The output the docs show after `$ command` (its `occurrence`-th such line), up to the
    /// block's end or the next prompt.
    static func transcript(_ command: String, occurrence: Int = 1) -> [String] {
        guard let (page, start) = location(command, occurrence: occurrence) else {
            return ["no page of README.md or docs/ has the line \"$ \(command)\" (occurrence \(occurrence))"]
        }
        let lines = page.lines
        return Array(lines[(start + 1)...].prefix { $0 != "```" && !$0.hasPrefix("$ ") })
    }

    static func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: #"127\.0\.0\.1:\d+"#, with: "127.0.0.1:PORT", options: .regularExpression)
            .replacingOccurrences(of: #"\(\d+(\.\d+)? s\)"#, with: "(T s)", options: .regularExpression)
            .replacingOccurrences(of: #"^\d\d:\d\d:\d\d\.\d+ "#, with: "HH:MM:SS ", options: .regularExpression) // a log line's time
            .replacingOccurrences(of: #" \d+(\.\d+)?ms\b"#, with: " Tms", options: .regularExpression)
    }

    /// Every run of documented lines between `…` lines appears in `output`, in order.
    static func expectTranscript(
        _ command: String, occurrence: Int = 1, matches output: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = output.components(separatedBy: "\n").map(normalised)
        var from = 0
        var segment: [String] = []
        for line in transcript(command, occurrence: occurrence).map(normalised) + ["…"] {
            guard line.trimmingCharacters(in: .whitespaces) == "…" else { segment.append(line); continue } // indented in JSON too
            defer { segment = [] }
            if segment.isEmpty { continue }
            let found = (from...max(from, actual.count - segment.count)).first { start in
                start + segment.count <= actual.count && Array(actual[start..<start + segment.count]) == segment
            }
            guard let found else {
                Issue.record(
                    "\(location(command, occurrence: occurrence)?.page.path ?? "README.md"): lines after \"$ \(command)\" are not in the real output:\n\(segment.joined(separator: "\n"))\n--- real output ---\n\(actual.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
                return
            }
            from = found + segment.count
        }
    }

    /// Runs the binary in `folder` (the repository root when nil): stdout and stderr in the
    /// order written, as a terminal shows them, then `exit N`.
    static func run(_ arguments: [String], in folder: URL? = nil) throws -> String {
        let (process, _, _) = CommandLineRunner.process(arguments)
        if let folder { process.currentDirectoryURL = folder }
        let terminal = Pipe()
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        let output = String(decoding: terminal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output + "exit \(process.terminationStatus)\n"
    }

    @Test func lint() throws {
        Self.expectTranscript("mockapi lint", matches: try Self.run(["lint"]))
    }

    @Test func lintWarnsAboutAnUnreferencedFixture() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try set.write("{}", to: "fixtures/old/renamed_response.json")
        Self.expectTranscript("mockapi lint", occurrence: 2, matches: try Self.run(["lint"], in: set.root))
    }

    @Test func lintNamesWhatAnotherToolsHabitsWrite() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try set.write("name: draft\n", to: "contracts/drafts/draft.yaml")
        let category = set.root.appendingPathComponent("contracts/categories/category.json")
        let text = try String(contentsOf: category, encoding: .utf8)
        let firstFixture = try #require(text.range(of: #""fixture""#))
        try set.write(
            text.replacingCharacters(in: firstFixture, with: #""fixure""#).replacingOccurrences(of: "{id:int}", with: ":id"),
            to: "contracts/categories/category.json")
        Self.expectTranscript(#"mockapi lint; echo "exit $?""#, matches: try Self.run(["lint"], in: set.root))
    }

    @Test func lintStrictOnADeadAPILink() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let page = set.fixtures.appendingPathComponent("activities/page1.json")
        let text = try String(contentsOf: page, encoding: .utf8)
        try set.write(text.replacingOccurrences(of: "/v1/activities?cursor=2", with: "/v1/activity?cursor=2"), to: "fixtures/activities/page1.json")
        Self.expectTranscript(#"mockapi lint --strict; echo "exit $?""#, matches: try Self.run(["lint", "--strict"], in: set.root))
    }

    @Test func routes() throws {
        Self.expectTranscript("mockapi routes", matches: try Self.run(["routes"]))
    }

    @Test func verify() throws {
        Self.expectTranscript("mockapi verify", matches: try Self.run(["verify"]))
    }

    @Test func exportSummary() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        Self.expectTranscript("mockapi export openapi --out openapi.json", matches: try Self.run(["export", "openapi", "--out", "openapi.json"], in: set.root))
    }

    @Test func diffAgainstARevision() throws {
        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        func git(_ arguments: String...) throws {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.email=readme@example.com", "-c", "user.name=readme"] + arguments
            process.currentDirectoryURL = set.root
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        try git("init", "-q")
        try git("add", ".")
        try git("commit", "-qm", "contracts")
        func edit(_ path: String, _ old: String, _ new: String) throws {
            let text = try String(contentsOf: set.root.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(old), "\(path) no longer holds \(old)")
            try set.write(text.replacingOccurrences(of: old, with: new), to: path)
        }
        try edit("fixtures/backings/backing.json", #""sequence": 311,"#, #""sequence": "311","#)
        try edit(
            "contracts/discover/discover.json", #""page": {"type": "int", "required": false}"#,
            #""page": {"type": "int", "required": true}, "per_page": {"type": "int", "required": false}"#)
        try edit(
            "contracts/backings/update_backing.json", #""unauthorized": {"status": 401, "fixture": "errors/unauthorized.json"}"#,
            #""unauthorized": {"status": 401, "fixture": "errors/unauthorized.json"}, "gone": {"status": 410}"#)

        Self.expectTranscript(#"mockapi diff --rev HEAD; echo "exit $?""#, matches: try Self.run(["diff", "--rev", "HEAD"], in: set.root))
    }

    @Test func coverageAfterFourRequests() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let base = server.baseURL
        _ = try Curl.run(["-s", "\(base)/v1/categories"])
        _ = try Curl.run(["-s", "-H", "Authorization: token abc", "\(base)/v1/users/self"])
        _ = try Curl.run(["-s", "\(base)/v1/projects/42/backer/2001"])
        _ = try Curl.run([
            "-s", "-X", "PUT", "-H", "Content-Type: application/json", "-H", "Authorization: token abc",
            "-d", #"{"amount": "45", "reward_id": 9002}"#, "\(base)/v1/projects/42/backers/2001",
        ])

        let output = try Self.run(["coverage", "--base-url", base])
        Self.expectTranscript(#"mockapi coverage --base-url http://127.0.0.1:38659; echo "exit $?""#, matches: output)
    }

    @Test func usageLinesAreTheBinarys() throws {
        let usages = Documentation.lines.map(\.line).filter { $0.hasPrefix("USAGE: mockapi ") }
        #expect(usages.count >= 7)
        for usage in usages {
            let words = usage.dropFirst("USAGE: mockapi ".count).split(separator: " ").prefix { !$0.hasPrefix("[") && !$0.hasPrefix("<") && !$0.hasPrefix("-") }
            let help = try Self.run(words.map(String.init) + ["--help"])
            #expect(help.contains("\n" + usage + "\n"), "mockapi \(words.joined(separator: " ")) --help has no line \(usage)")
        }
    }

    @Test func importHarExample() throws {
        let folder = try TemporaryContractSet(contracts: [:])
        let har = BundledAPI.root.appendingPathComponent("Tests/MockAPIImportTests/Resources/mobile-session.har").path
        Self.expectTranscript(
            "mockapi import har Tests/MockAPIImportTests/Resources/mobile-session.har --out session",
            matches: try Self.run(["import", "har", har, "--out", "session"], in: folder.root))
    }

    /// The journal example: the upload's answer, and the journal after it and a refused PUT.
    @Test func journalExample() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        defer { _ = server.stop() }
        let folder = try TemporaryContractSet(contracts: [:])
        let cover = folder.root.appendingPathComponent("cover.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(" cover ".utf8) + [0xFF, 0xD9]).write(to: cover)
        let base = server.baseURL
        func local(_ text: String) -> String {
            Self.normalised(text)
                .replacingOccurrences(of: #""receivedAt": \d+"#, with: #""receivedAt": T"#, options: .regularExpression)
                .replacingOccurrences(of: #"boundary=-+[0-9a-f]+"#, with: "boundary=B", options: .regularExpression)
                .replacingOccurrences(of: #"curl/[0-9.]+"#, with: "curl/V", options: .regularExpression)
        }

        let upload = try Curl.run(["-s", "-F", "image=@\(cover.path);type=image/jpeg", "\(base)/v1/projects/42/updates/draft/images"])
        _ = try Curl.run([
            "-s", "-o", "/dev/null", "-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"amount": "45"}"#,
            "\(base)/v1/projects/42/backers/2001",
        ])
        let journal = try Curl.run(["-s", "\(base)/__mockapi/requests"])

        let uploadCommand = #"curl -s -F "image=@cover.jpg;type=image/jpeg" http://127.0.0.1:8080/v1/projects/42/updates/draft/images"#
        func lines(_ output: String) -> String { output.components(separatedBy: "\n").map(local).filter { !$0.isEmpty }.joined(separator: "\n") }
        expectPinned(lines(upload.stdout), Self.transcript(uploadCommand).map(local).joined(separator: "\n"))
        expectPinned(lines(journal.stdout), Self.transcript("curl -s http://127.0.0.1:8080/__mockapi/requests").map(local).joined(separator: "\n"))
    }
}
