import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

/// Each imported JSON response keeps its document schema as the response's `schema`, and the
/// fixtures the importer made fit it: an imported set lints clean. An example the document gives
/// that breaks its own schema is left out with a warning (a body made up from the schema when no
/// example of the response keeps it).
///
/// Serialized: each document is seconds of work that never waits, and run side by side they held
/// every thread of a 2-core machine for a minute, so other suites' exchanges (whose callbacks
/// need a thread of the same pool) ran into their 60 s deadline.
@Suite(.needsCorpus, .serialized) struct CorpusResponseShapeTests {
    @Test(arguments: OpenAPICorpus.documents) func importedFixturesFitTheirSchemas(document: String) throws {
        let imported = try OpenAPIImporter().importFile(try OpenAPICorpus.require().appendingPathComponent(document))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-shape-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ContractWriter(output: folder).write(imported)
        let set = try ContractSet.load(contracts: folder.appendingPathComponent("contracts"), fixtures: folder.appendingPathComponent("fixtures"))
        let mismatches = ShapeMismatch.find(in: set)
        #expect(mismatches.isEmpty, "\(document): \(mismatches.prefix(5))")
        let shaped = set.contracts.flatMap(\.responses).filter { $0.shape != nil }
        let broken = imported.warnings.filter { $0.contains("does not fit its schema") }
        print("\(document): \(shaped.count) of \(imported.responseCount) responses with a schema; \(broken.count) examples break theirs")
        #expect(!shaped.isEmpty, "\(document)")
    }
}
