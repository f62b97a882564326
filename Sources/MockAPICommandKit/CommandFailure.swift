import ArgumentParser

/// Every way a command gives up, `mockapi`'s and a team's gate's alike. Commands throw these;
/// `translated` is the one place that turns them into what is printed and the exit status.
/// (A report's own verdict, exit 1, stays ArgumentParser's `ExitCode`: that is no giving up.)
package enum CommandFailure: Error {
    /// A flag that cannot be, found in `validate()`: ArgumentParser's usage error (`Error: …`,
    /// the usage line, exit 64).
    case usage(String)
    /// Inputs that cannot be used (a file, an address, a server): `mockapi: reason` on stderr,
    /// or `mockapi COMMAND: reason` when a command is named; exit 2.
    case unusable(String, command: String? = nil)
    /// The same, said as given: `stderr` (a whole problem report, or a line naming a gate) and,
    /// when not nil, `stdout` (the document a `--format json` reader waits for); exit 2.
    case unusableAsSaid(stderr: String, stdout: String? = nil)

    /// What ArgumentParser prints and exits with for `error`; other errors pass through as they are.
    package static func translated(_ error: any Error) -> any Error {
        switch error as? CommandFailure {
        case .usage(let reason):
            return ValidationError(reason)
        case .unusable(let reason, let command):
            Output.error("mockapi\(command.map { " " + $0 } ?? ""): \(reason)")
            return ExitCode(2)
        case .unusableAsSaid(let stderr, let stdout):
            Output.error(stderr)
            if let stdout { Output.line(stdout) }
            return ExitCode(2)
        case nil:
            return error
        }
    }

    /// Runs a command's `validate()` checks, translated (ArgumentParser calls `validate()` itself).
    package static func translating(_ checks: () throws -> Void) throws {
        do { try checks() } catch { throw translated(error) }
    }
}
