import Foundation
import MockAPICore
import Testing

/// `ChildProcess`, checked through what `sh` and the kernel (/proc) say the child saw.
@Suite struct ChildProcessTests {
    /// Runs `sh -c script` to its end; its stdout and the exit status.
    private func shell(_ script: String, configure: (ChildProcess) -> Void = { _ in }) throws -> (stdout: String, status: Int32, reason: ChildProcess.TerminationReason) {
        let child = ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        let output = Pipe()
        child.standardOutput = output
        configure(child)
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return (text, child.terminationStatus, child.terminationReason)
    }

    @Test func exitCodesArgumentsEnvironmentAndDirectoryReachTheChild() throws {
        let run = try shell(#"printf '%s|%s|%s' "$0" "$GREETING" "$(pwd)"; exit 7"#) {
            $0.environment = ["GREETING": "hello world"]
            $0.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        }
        #expect(run.stdout == "/bin/sh|hello world|/tmp")
        #expect(run.status == 7)
        #expect(run.reason == .exit)
    }

    @Test func stdinAndAMergedStdoutAndStderrArePipes() throws {
        let child = ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "read line; echo out:$line; echo err:$line >&2"])
        let input = Pipe(), terminal = Pipe()
        child.standardInput = input
        child.standardOutput = terminal
        child.standardError = terminal
        try child.run()
        try input.fileHandleForWriting.write(contentsOf: Data("ping\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: terminal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(text == "out:ping\nerr:ping\n")
    }

    @Test func theChildInheritsNoDescriptorButItsThree() throws {
        // Opened without close-on-exec: an inherited pipe end keeps another test's reader from ever
        // seeing its end, so every descriptor past stderr is closed in the child.
        let held = open("/dev/null", O_RDONLY)
        try #require(held > 2)
        defer { close(held) }
        let run = try shell("ls /proc/self/fd")
        let descriptors = run.stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors.contains(2))
        #expect(!descriptors.contains(held), "inherited: \(descriptors)")
    }

    @Test func theChildStartsWithNoSignalBlockedWhateverTheSpawningThreadBlocks() throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let run = try shell("grep SigBlk /proc/self/status")
        #expect(run.stdout == "SigBlk:\t0000000000000000\n")
    }

    @Test func terminateEndsARunningChildBySignal() throws {
        let child = ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        try child.run()
        #expect(child.isRunning)
        let started = Date()
        child.terminate()
        child.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!child.isRunning)
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)
        child.terminate() // reaped: its PID is no longer its own, so nothing is sent
    }

    @Test func isRunningOnAnotherThreadNeverLosesTheExitStatus() throws {
        let child = ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "sleep 0.2; exit 3"])
        try child.run()
        let poller = Thread { while child.isRunning { usleep(1000) } }
        poller.start()
        child.waitUntilExit()
        #expect(child.terminationStatus == 3)
    }

    @Test func aMissingProgramOrFolderIsAnError() {
        #expect(throws: POSIXError.self) { try ChildProcess(URL(fileURLWithPath: "/nonexistent/program")).run() }
        let child = ChildProcess(URL(fileURLWithPath: "/bin/true"))
        child.currentDirectoryURL = URL(fileURLWithPath: "/nonexistent/folder")
        #expect(throws: POSIXError.self) { try child.run() }
    }

    /// Foundation's `Process.run()` crashes now and then when many threads spawn at once (it
    /// over-reads /proc/self/fd); this many spawns from this many threads ran into it.
    @Test func manyThreadsSpawnAtOnce() async throws {
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let child = ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit \(index % 5)"])
                    child.standardOutput = nil
                    try child.run()
                    child.waitUntilExit()
                    return child.terminationStatus
                }
            }
            return try await group.reduce(into: [Int32]()) { $0.append($1) }
        }
        #expect(statuses.sorted() == (0..<64).map { Int32($0 % 5) }.sorted())
    }
}
