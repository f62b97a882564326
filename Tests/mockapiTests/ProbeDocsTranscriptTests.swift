import Foundation
import MockAPITestSupport
import Testing

/// docs/commands.md's `probe` transcript and `--version` line, and the `--log-format json` lines,
/// from real runs.
extension ReadmeTranscriptTests {
    /// `probe` and `probe health` against a running server, then `probe` once it has stopped.
    @Test func probeReadyHealthAndRefused() throws {
        let server = try CommandLineRunner.Server(["--quiet"])
        let url = server.baseURL
        Self.expectTranscript("mockapi serve --quiet &", matches: server.firstLine)
        Self.expectTranscript(#"mockapi probe; echo "exit $?""#, matches: try Self.run(["probe", "--url", url]))
        Self.expectTranscript(#"mockapi probe health; echo "exit $?""#, matches: try Self.run(["probe", "health", "--url", url]))
        _ = server.stop()
        Self.expectTranscript(#"kill %1; wait; mockapi probe; echo "exit $?""#, matches: try Self.run(["probe", "--url", url]))
    }

    /// The documented `--version` line has the binary's form and version; the commit differs by build.
    @Test func versionLine() throws {
        let form = /^mockapi (\d+\.\d+\.\d+) \(([0-9a-f]{7,40}|unknown)\)$/
        let documented = try #require(Self.transcript("mockapi --version").first)
        let run = try CommandLineRunner.run(["--version"])
        let real = run.stdout.trimmingCharacters(in: .newlines)
        let documentedVersion = try #require(documented.wholeMatch(of: form), "docs: \(documented)").1
        let realVersion = try #require(real.wholeMatch(of: form), "binary: \(real)").1
        #expect(documentedVersion == realVersion)
    }

    /// `serve --log-format json`: the listening message and a request line on stderr.
    @Test func logFormatJSON() throws {
        let server = try CommandLineRunner.Server(["--log-format", "json"])
        _ = try Curl.run(["-s", "-o", "/dev/null", "\(server.baseURL)/v1/activities?cursor=2"])
        let stderr = server.stop().stderr
        func local(_ text: String) -> String {
            text.replacingOccurrences(of: #""time":"[^"]+""#, with: #""time":"T""#, options: .regularExpression)
                .replacingOccurrences(of: #""ms":[0-9.]+"#, with: #""ms":T"#, options: .regularExpression)
        }
        let documented = Self.transcript("mockapi serve --log-format json").map { local(Self.normalised($0)) }
        let real = stderr.components(separatedBy: "\n").map { local(Self.normalised($0)) }
        #expect(documented.count == 2)
        #expect(Array(real.prefix(documented.count)) == documented, "real stderr:\n\(stderr)")
    }
}
