import ArgumentParser
import MockAPICommandKit
import MockAPIServer

/// `serve`'s arguments parsed by `Serve` alone, as its own root: ArgumentParser then builds
/// neither the root's argument set nor its tree of eleven commands at every start. Only a
/// plain, valid command line takes this way; whatever ArgumentParser answers itself (help,
/// version, completion scripts) and every error go to `MockAPICommand.parseAsRoot()`, so each
/// message, help screen and exit code is the root's, word for word.
enum ServeFastParse {
    /// The parsed `serve`, or nil when the root parse must answer. `arguments` follow `serve`. The
    /// commonest lines are read with no ArgumentParser at all (`ServePlainRead`).
    static func serve(_ arguments: [String]) -> MockAPICommand.Serve? {
        let chosen: MockAPICommand.Serve?
        switch ServePlainRead.read(arguments) {
        case .read(let serve): chosen = serve
        case .refused: chosen = nil
        case .notPlain: chosen = parsedAlone(arguments)
        }
        guard let serve = chosen else { return nil }
        Output.errorsAsJSON = serve.options.journal.logFormat == .json // as `validate()` would
        return serve
    }

    /// `Serve` parsed as its own root, its checks passed; nil when the root parse must answer.
    static func parsedAlone(_ arguments: [String]) -> MockAPICommand.Serve? {
        guard !arguments.contains(where: needsRoot) else { return nil }
        // `validate()` prints a failing check's message; here a failure must print nothing, as the
        // root parse says it again: so the checks run untranslated, after the parse.
        MockAPICommand.Serve.validatesWhenParsed = false
        defer { MockAPICommand.Serve.validatesWhenParsed = true }
        guard let serve = (try? MockAPICommand.Serve.parseAsRoot(arguments)) as? MockAPICommand.Serve, (try? serve.check()) != nil else { return nil }
        return serve
    }

    /// ArgumentParser's own words, and anything that could hold one (`-qh` is `-q -h`; a value
    /// `-h` too, to be safe): `help`, `-h`, `-help`, `--help`, `--help-hidden`, `--version`,
    /// `--generate-completion-script`, `--experimental-dump-help`, `---completion`.
    static func needsRoot(_ argument: String) -> Bool {
        if argument == "help" || argument.hasPrefix("---") { return true }
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            return ["help", "help-hidden", "version", "generate-completion-script", "experimental-dump-help"].contains(String(name))
        }
        return argument.hasPrefix("-") && argument.contains("h")
    }
}
