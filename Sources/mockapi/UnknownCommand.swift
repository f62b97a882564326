/// A first argument that names no subcommand: argument-parser would answer with a generic
/// "unexpected argument"; a typo deserves the command it was meant to be.
enum UnknownCommand {
    /// `Error: unknown command "serv". Did you mean "serve"?`, or nil when `argument` is a
    /// command, an option, or absent.
    static func message(for argument: String?, known: [String]) -> String? {
        guard let argument, !argument.hasPrefix("-"), !known.contains(argument) else { return nil }
        let nearest = known.map { (name: $0, distance: editDistance(argument, $0)) }.min { $0.distance < $1.distance }
        if let nearest, nearest.distance <= max(1, min(argument.count, nearest.name.count) / 2) || nearest.name.hasPrefix(argument) {
            return #"Error: unknown command "\#(argument)". Did you mean "\#(nearest.name)"?"#
        }
        return #"Error: unknown command "\#(argument)". Commands: \#(known.joined(separator: ", ")); see 'mockapi --help'."#
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
