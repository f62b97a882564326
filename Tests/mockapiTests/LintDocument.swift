import Foundation

/// `mockapi lint --format json` as a script reads it (Sources/mockapi/LintReport.swift writes it),
/// decoded by Foundation: a member of another type, or a missing one, fails the decoding.
struct LintDocument: Decodable {
    struct Summary: Decodable, Equatable {
        var contracts: Int
        var responses: Int
        var fixtures: Int
    }

    struct Problem: Decodable {
        var file: String
        var line: Int?
        var column: Int?
        var jsonPath: String?
        var message: String
    }

    struct Warning: Decodable, Equatable {
        var kind: String
        var file: String
        var jsonPath: String?
        var url: String?
        var message: String
    }

    var usable: Bool
    var exitCode: Int
    /// Null, not missing, when the set is not usable.
    var summary: Summary?
    var problems: [Problem]
    var warnings: [Warning]

    private enum CodingKeys: String, CodingKey { case usable, exitCode, summary, problems, warnings }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        usable = try container.decode(Bool.self, forKey: .usable)
        exitCode = try container.decode(Int.self, forKey: .exitCode)
        // decodeNil throws for a missing key: `summary` must be there, an object or null.
        summary = try container.decodeNil(forKey: .summary) ? nil : container.decode(Summary.self, forKey: .summary)
        problems = try container.decode([Problem].self, forKey: .problems)
        warnings = try container.decode([Warning].self, forKey: .warnings)
    }

    init(_ stdout: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(stdout.utf8))
    }
}
