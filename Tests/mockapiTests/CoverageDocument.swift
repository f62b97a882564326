import Foundation

/// `mockapi coverage --format json` as a script reads it (Sources/MockAPIVerify/Reports/CoverageRendering.swift
/// writes it), decoded by Foundation: a member of another type, or a missing one, fails the decoding.
struct CoverageDocument: Decodable {
    struct Summary: Decodable {
        var requests: Int
        var unmatched: Int
        var violations: Int
        var browsing: Int
        var contracts: Int
        var uncoveredContracts: [String]
        var strict: Bool
        var evicted: Int
        var noRequests: Bool
        var exitCode: Int
    }

    struct Refusal: Decodable {
        var id: Int
        var method: String
        var target: String
        var status: Int
        var contract: String?
        var problem: String
        /// Only when several journals were read.
        var journal: String?
    }

    struct Use: Decodable {
        var name: String
        var method: String
        var path: String
        var file: String
        var served: Int
    }

    var summary: Summary
    var target: String
    var unmatched: [Refusal]
    var violations: [Refusal]
    var browsing: [Refusal]
    var contracts: [Use]

    /// The document a `coverage --format json` run printed; the run's output in the failure.
    static func read(_ stdout: String) throws -> CoverageDocument {
        do {
            return try JSONDecoder().decode(CoverageDocument.self, from: Data(stdout.utf8))
        } catch {
            throw CoverageUnreadable(description: "\(error)\n\(stdout)")
        }
    }
}

struct CoverageUnreadable: Error, CustomStringConvertible { var description: String }
