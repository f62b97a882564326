import ArgumentParser
import MockAPIVerifyCommand

/// Every way a `mockapi` command gives up. Commands throw these; `translated` is the one place
/// that turns them into what is printed and the exit status.
enum CommandFailure: Error {
    /// A flag that cannot be, found in `validate()`: ArgumentParser's usage error (`Error: …`,
    /// the usage line, exit 64).
    case usage(String)
    /// Inputs that cannot be used (a file, an address, a server): `mockapi: reason` on stderr,
    /// or `mockapi COMMAND: reason` when a command is named; exit 2.
    case unusable(String, command: String? = nil)

    /// What ArgumentParser prints and exits with for `error`; other errors pass through as they are.
    static func translated(_ error: any Error) -> any Error {
        switch error as? CommandFailure {
        case .usage(let reason):
            return ValidationError(reason)
        case .unusable(let reason, let command):
            Output.error("mockapi\(command.map { " " + $0 } ?? ""): \(reason)")
            return ExitCode(2)
        case nil:
            return error
        }
    }

    /// Runs a command's `validate()` checks, translated (ArgumentParser calls `validate()` itself).
    static func translating(_ checks: () throws -> Void) throws {
        do { try checks() } catch { throw translated(error) }
    }
}
