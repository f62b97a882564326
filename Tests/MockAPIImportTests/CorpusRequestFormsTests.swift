import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

/// The request forms real documents use and contracts now say: Stripe's deepObject query
/// parameters, Kubernetes' PATCH media types, the petstore's form and XML bodies, Moby's tar
/// upload; and an exported set whose document alone (no `x-mockapi` extensions) says them too.
@Suite(.needsCorpus) struct CorpusRequestFormsTests {
    private func contracts(_ document: String) throws -> (contracts: [ContractDraft], warnings: [String]) {
        let imported = try OpenAPIImporter().importFile(try OpenAPICorpus.require().appendingPathComponent(document))
        return (imported.contracts, imported.warnings)
    }

    private func contract(_ drafts: [ContractDraft], _ method: RequestMethod, _ path: String) throws -> ContractDraft {
        try #require(drafts.first { $0.method == method && $0.path == path }, "\(method.rawValue) \(path)")
    }

    @Test func stripesDeepObjectParametersBecomeNestedQueryKeys() throws {
        let (drafts, warnings) = try contracts("01-stripe-spec3.json")
        let charges = try contract(drafts, .GET, "/v1/charges")
        let created = try #require(charges.query.first { $0.name == "created" })
        #expect(created.type == .int && created.nested == .init(keys: nil, plain: true) && !created.required)
        let expand = try #require(charges.query.first { $0.name == "expand" })
        #expect(expand.arrayStyle == .repeated && expand.nested == .init() && expand.type == .string)
        let people = try contract(drafts, .GET, "/v1/accounts/{account}/people")
        let relationship = try #require(people.query.first { $0.name == "relationship" })
        #expect(relationship.type == .bool && relationship.nested == .init(keys: nil, plain: false))
        // Every deepObject parameter that is an object or a list is kept: `expand` on 197 operations, and the rest.
        let nested = drafts.flatMap(\.query).filter { $0.nested != nil }
        #expect(nested.count >= 270, "\(nested.count)")
        #expect(nested.filter { $0.name == "expand" }.count == 197)
        #expect(!warnings.contains { $0.contains("deepObject") && $0.contains("left out") })
    }

    @Test func kubernetesPatchesListTheirMediaTypes() throws {
        let (drafts, warnings) = try contracts("02-kubernetes-swagger.json")
        // 131 patches name five types; 6 proxy patches take `*/*`, which is dropped with a warning.
        let patches = drafts.filter { $0.method == .PATCH && $0.body.contentTypes != nil }
        #expect(patches.count == 131)
        #expect(warnings.filter { $0.contains("*/* is not a type a contract can list") }.count >= 6)
        for patch in patches {
            let types = patch.body.contentTypes ?? []
            #expect(
                types.contains("application/json-patch+json") && types.contains("application/merge-patch+json")
                    && types.contains("application/strategic-merge-patch+json") && types.contains("application/apply-patch+yaml")
                    && types.contains("application/apply-patch+cbor"),
                "\(patch.name): \(types)")
        }
    }

    @Test func thePetstoresFormAndXMLBodiesAreListed() throws {
        let (drafts, _) = try contracts("09-swagger-petstore3.yaml")
        let add = try contract(drafts, .POST, "/pet")
        #expect(add.body.contentTypes == ["application/json", "application/xml", "application/x-www-form-urlencoded"])
        #expect(add.json?.contains { $0.key == "name" && $0.required } == true)
        let (moby, _) = try contracts("03-moby-engine-swagger.yaml")
        let load = try contract(moby, .POST, "/images/load")
        #expect(load.body.contentTypes == ["application/x-tar"])
        #expect(load.json == nil && load.multipart == nil)
        #expect(try contract(moby, .POST, "/images/create").body.contentTypes == ["text/plain", "application/octet-stream"])
    }

    @Test func theExportedDocumentAloneSaysNestedKeysAndMediaTypes() throws {
        var file = ContractFile(name: "patch_thing", method: .PATCH, path: "/things/{id}")
        file.query = [
            QueryExpectation(name: "created", type: .int, required: false, nested: .init(keys: ["gt", "lt"], plain: true)),
            QueryExpectation(name: "expand", required: true, arrayStyle: .repeated, nested: .init()),
            QueryExpectation(name: "metadata", required: false, nested: .init()),
            QueryExpectation(name: "flags", type: .bool, required: true, nested: .init(keys: ["a"])),
        ]
        file.json = [JSONKeyExpectation(key: "spec", type: .object, required: false)]
        file.body.contentTypes = ["application/merge-patch+json", "application/x-www-form-urlencoded", "application/apply-patch+yaml"]
        file.responses = [.init(name: "default", status: 200, body: ["ok": true])]
        let set = try TemporaryContractSet(contracts: ["patch_thing.json": file.fileJSON.prettySerialized])
        var document = try #require(OpenAPIExporter().document(for: try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)).objectValue)
        document[OpenAPIExporter.setExtension] = nil // read as any other document, not as mockapi's own export
        let scratch = try ScratchFolder()
        let path = scratch.url.appendingPathComponent("openapi.json")
        try Data(JSONValue.object(document).prettySerialized.utf8).write(to: path)
        let valid = try SpecValidator.run(path)
        #expect(valid.status == 0, "\(valid.output)")
        let back = try #require(try OpenAPIImporter().importFile(path).contracts.first)
        #expect(back.query == file.query)
        #expect(back.body.contentTypes == file.body.contentTypes)
        #expect(back.json?.map(\.key) == ["spec"])
    }
}
