import Foundation
import MockAPIVerify
import Testing

/// The parent's side of the decoding child, against stand-in children (`sh`) that do what a
/// gate's child can: answer, trap, hang, or never start serving.
@Suite struct DecodingChildTests {
    private static func child(_ script: String, timeout: Double = 10) -> DecodingChild {
        DecodingChild(.init(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script]), timeout: timeout)
    }

    private static let body = Data(#"{"images": []}"#.utf8)

    @Test func aChildThatDiesWithTheRequestInFlightIsACrashWithItsSignalAndLastWords() {
        // Ready, reads the request, says what Swift says on a trap, and dies of SIGILL.
        let child = Self.child(#"printf '5:ready,'; head -c 20 >/dev/null; echo 'x.swift:3: Fatal error: Unexpectedly found nil' >&2; kill -ILL $$"#)
        defer { child.stop() }
        #expect(child.decode(route: "product", response: "default", body: Self.body) == .crashed(how: "SIGILL (signal 4)", message: "x.swift:3: Fatal error: Unexpectedly found nil"))
        #expect(child.unusable == nil)
    }

    @Test func aChildThatGivesNoAnswerIsKilledAfterTheTimeout() {
        let child = Self.child("printf '5:ready,'; exec sleep 30", timeout: 0.5)
        defer { child.stop() }
        let started = Date()
        #expect(child.decode(route: "product", response: "default", body: Self.body) == .crashed(how: "no answer in 0.5 s, killed", message: ""))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aChildThatNeverServesLeavesTheVariantsToThisProcessAndSaysWhy() {
        let child = Self.child("echo 'cannot load contracts' >&2; exit 3")
        #expect(child.decode(route: "product", response: "default", body: Self.body) == .unavailable)
        #expect(child.unusable?.hasSuffix("it ended before serving (exit 3): cannot load contracts") == true, "\(child.unusable ?? "")")
        // Not tried again for each variant.
        #expect(child.decode(route: "product", response: "default", body: Self.body) == .unavailable)
    }
}
