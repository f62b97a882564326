import MockAPICore

/// A first argument that names no subcommand: argument-parser would answer with a generic
/// "unexpected argument"; a typo deserves the command it was meant to be.
enum UnknownCommand {
    static let optionsTypedAsCommands = ["version": "--version"]

    /// `Error: unknown command "serv". Did you mean "serve"?`, or nil when `argument` is a
    /// command, an option, or absent.
    static func message(for argument: String?, known: [String]) -> String? {
        guard let argument, !argument.hasPrefix("-"), !known.contains(argument) else { return nil }
        // Options people type as commands (`mockapi version`): the nearest command is the wrong answer.
        if let option = optionsTypedAsCommands[argument.lowercased()] {
            return #"Error: unknown command "\#(argument)". Did you mean "mockapi \#(option)"?"#
        }
        let nearest = known.map { (name: $0, distance: NearestContracts.editDistance(argument, $0, limit: Int.max)) }.min { $0.distance < $1.distance }
        if let nearest, nearest.distance <= max(1, min(argument.count, nearest.name.count) / 2) || nearest.name.hasPrefix(argument) {
            return #"Error: unknown command "\#(argument)". Did you mean "\#(nearest.name)"?"#
        }
        return #"Error: unknown command "\#(argument)". Commands: \#(known.joined(separator: ", ")); see 'mockapi --help'."#
    }
}
