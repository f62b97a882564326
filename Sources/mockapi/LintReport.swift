import Foundation
import MockAPICore
import MockAPIVerify

/// `mockapi lint --format json`: one document on stdout, whether the set is usable or not.
///
/// ```json
/// {
///   "contracts": "contracts",
///   "exitCode": 0,
///   "fixtures": "fixtures",
///   "problems": [],
///   "summary": {"contracts": 19, "fixtures": 19, "responses": 36},
///   "usable": true,
///   "warnings": [
///     {"file": "fixtures/old.json", "kind": "unreferenced-fixture", "message": "no contract references this fixture"}
///   ]
/// }
/// ```
/// `summary` is null when the set is not usable; then `problems` lists why, each with `file` and
/// `message`, and where in the file when known: `line` and `column` (JSON that does not parse)
/// or `jsonPath`. A warning's `kind` is `unreferenced-fixture`, `dead-link` (with `jsonPath` and
/// `url`) or `shape-mismatch` (a body its response's `schema` does not allow, with `jsonPath`). Keys that do not apply to a problem or warning are left out.
/// `exitCode` is the command's: 0 usable, 1 warnings under `--strict`, 2 not usable.
struct LintReport: Encodable {
    struct Summary: Encodable {
        var contracts: Int
        var responses: Int
        var fixtures: Int
    }

    struct Problem: Encodable {
        var file: String
        var line: Int?
        var column: Int?
        var jsonPath: String?
        var message: String

        init(_ problem: LoadProblem) {
            file = problem.file
            message = problem.message
            switch problem.location {
            case .file: break
            case .line(let line, let column): (self.line, self.column) = (line, column)
            case .jsonPath(let path): jsonPath = path
            }
        }
    }

    struct Warning: Encodable {
        enum Kind: String, Encodable {
            case unreferencedFixture = "unreferenced-fixture", deadLink = "dead-link", shapeMismatch = "shape-mismatch"
        }
        var kind: Kind
        var file: String
        var jsonPath: String?
        var url: String?
        var message: String
    }

    var contracts: String
    var fixtures: String
    var usable: Bool
    var summary: Summary?
    var problems: [Problem]
    var warnings: [Warning]
    var exitCode: Int32

    private enum CodingKeys: String, CodingKey { case contracts, fixtures, usable, summary, problems, warnings, exitCode }

    // Written out so `summary` is null, not missing, when the set is not usable.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(contracts, forKey: .contracts)
        try container.encode(fixtures, forKey: .fixtures)
        try container.encode(usable, forKey: .usable)
        try container.encode(summary, forKey: .summary)
        try container.encode(problems, forKey: .problems)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(exitCode, forKey: .exitCode)
    }

    var json: String { JSONDocument.pretty(self) }
}

/// Typed reports as JSON a person can read and diff, laid out as every other report of mockapi
/// (`JSONValue.prettySerialized`: two-space indents, `"key": value`), keys sorted.
enum JSONDocument {
    static func pretty(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Our own plain values (strings, numbers, arrays) always encode, and the encoder's JSON always parses.
        let data = try! encoder.encode(value)
        return try! JSONParser.parse(Array(data)).prettySerialized
    }
}
