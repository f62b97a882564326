import Foundation
import MockAPITestSupport
import Testing

/// `mockapi diff` as a CI step runs it: against a git revision, with reports and exit codes.
struct DiffCommandTests {
    private func git(_ arguments: [String], in folder: URL) throws {
        let run = try ExternalTool.run(["git", "-c", "user.email=ci@example.com", "-c", "user.name=CI"] + arguments, directory: folder)
        #expect(run.status == 0, "git \(arguments.joined(separator: " ")): \(run.stderr)")
    }

    @Test func aBreakingEditSinceARevisionFailsTheGateByName() throws {
        let repo = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try git(["init", "-q"], in: repo.root)
        try git(["add", "-A"], in: repo.root)
        try git(["commit", "-qm", "contracts"], in: repo.root)
        let contract = repo.contracts.appendingPathComponent("discover/discover.json")
        try String(contentsOf: contract, encoding: .utf8)
            .replacingOccurrences(of: #""page": {"type": "int", "required": false}"#, with: #""page": {"type": "int"}"#)
            .write(to: contract, atomically: true, encoding: .utf8)
        let folders = ["--contracts", repo.contracts.path, "--fixtures", repo.fixtures.path]
        let junit = repo.root.appendingPathComponent("reports/diff.xml")

        let failed = try CommandLineRunner.run(["diff", "--rev", "HEAD"] + folders + ["--junit", junit.path])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("BREAKING discover:request.query.page: query key page is now required"))
        #expect(failed.stdout.contains("1 breaking, 0 allowed, 0 compatible"))
        #expect(try String(contentsOf: junit, encoding: .utf8).contains(#"<testcase classname="mockapi.diff" name="discover">"#))

        let allowed = try CommandLineRunner.run(["diff", "--rev", "HEAD", "--allow", "discover:request.query.page", "--format", "json"] + folders)
        #expect(allowed.status == 0)
        struct Counts: Decodable {
            var breaking: Int
            var allowed: Int
        }
        let counts = try JSONDecoder().decode(Counts.self, from: Data(allowed.stdout.utf8))
        #expect(counts.breaking == 0)
        #expect(counts.allowed == 1)

        // A typo would otherwise be accepted silently, and the gate would stay red for no said reason.
        let typo = try CommandLineRunner.run(["diff", "--rev", "HEAD", "--allow", "nosuch", "--allow", "discover"] + folders)
        #expect(typo.status == 2)
        #expect(
            typo.stderr
                == "mockapi diff: --allow nosuch accepts no breaking change; the breaking changes are: discover:request.query.page "
                + "(a contract name allows all of its changes)\n", "\(typo.stderr)")

        let unknown = try CommandLineRunner.run(["diff", "--rev", "no-such-revision"] + folders)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("at revision no-such-revision"))
    }

    @Test func twoFoldersWithTheSameSetAgree() throws {
        let copy = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let result = try CommandLineRunner.run(["diff", BundledAPI.root.path, copy.root.path])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("(19 contracts): 0 breaking, 0 allowed, 0 compatible\n"))

        let nothingToAllow = try CommandLineRunner.run(["diff", BundledAPI.root.path, copy.root.path, "--allow", "backing", "--format", "json"])
        #expect(nothingToAllow.status == 2)
        #expect(nothingToAllow.stderr == "mockapi diff: --allow backing accepts no breaking change; there is no breaking change to allow\n")
        #expect(nothingToAllow.stdout.contains(#""error""#), "--format json still gets a document on stdout")
    }
}
