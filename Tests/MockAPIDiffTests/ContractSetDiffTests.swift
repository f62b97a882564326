import Foundation
import MockAPICore
import MockAPIDiff
import MockAPITestSupport
import Testing

/// `mockapi diff` on pairs of real sets: the bundled contracts, and a copy with one edit each.
struct ContractSetDiffTests {
    /// The bundled set, and a copy with `edit` applied to the file at `path` (relative to the copy's root).
    private func diff(editing path: String, allow: [String] = [], _ edit: (String) -> String) throws -> ContractSetDiff {
        let changed = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let original = try String(contentsOf: changed.root.appendingPathComponent(path), encoding: .utf8)
        let edited = edit(original)
        #expect(edited != original, "the edit of \(path) changed nothing")
        try changed.write(edited, to: path)
        let old = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let new = try ContractSet.load(contracts: changed.contracts, fixtures: changed.fixtures)
        return ContractSetDiff(old: old, new: new, allow: allow)
    }

    private func breaking(_ diff: ContractSetDiff) -> [String] { diff.breaking.map(\.id) }

    @Test func theSameSetHasNoChanges() throws {
        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let diff = ContractSetDiff(old: set, new: set)
        #expect(diff.changes.isEmpty)
        #expect(diff.exitCode == 0)
    }

    @Test func aRemovedContractBreaks() throws {
        let changed = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try FileManager.default.removeItem(at: changed.contracts.appendingPathComponent("backings/update_backing.json"))
        let diff = ContractSetDiff(
            old: try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures),
            new: try ContractSet.load(contracts: changed.contracts, fixtures: changed.fixtures))
        #expect(breaking(diff) == ["update_backing"])
        #expect(diff.breaking.first?.message.contains("PUT /v1/projects/{projectId:int}/backers/{backerId:int}") == true)
        #expect(diff.exitCode == 1)
    }

    @Test func aRemovedResponseBreaksAndANewOneIsCompatible() throws {
        let diff = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #""invalid": {"status": 422"#, with: #""rejected": {"status": 422"#)
        }
        #expect(breaking(diff) == ["update_backing:responses.invalid"])
        #expect(diff.compatible.map(\.id) == ["update_backing:responses.rejected"])
    }

    @Test func aChangedMethodOrPathBreaksARenamedParameterDoesNot() throws {
        let method = try diff(editing: "contracts/backings/update_backing.json") { $0.replacingOccurrences(of: #""PUT""#, with: #""PATCH""#) }
        #expect(breaking(method) == ["update_backing:request.method"])
        let path = try diff(editing: "contracts/backings/update_backing.json") { $0.replacingOccurrences(of: "/backers/", with: "/backings/") }
        #expect(breaking(path) == ["update_backing:request.path"])
        let renamed = try diff(editing: "contracts/backings/update_backing.json") { $0.replacingOccurrences(of: "{backerId:int}", with: "{id:int}") }
        #expect(renamed.breaking.isEmpty)
        #expect(renamed.compatible.map(\.id) == ["update_backing:request.path"])
    }

    @Test func aNewRequiredQueryKeyBreaksANewOptionalOneDoesNot() throws {
        let required = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""page": {"type": "int", "required": false}"#, with: #""page": {"type": "int", "required": false}, "per_page": {"type": "int"}"#)
        }
        #expect(breaking(required) == ["discover:request.query.per_page"])
        let optional = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""page": {"type": "int", "required": false}"#, with: #""page": {"type": "int", "required": false}, "per_page": {"type": "int", "required": false}"#)
        }
        #expect(optional.breaking.isEmpty)
        #expect(optional.compatible.map(\.id) == ["discover:request.query.per_page"])
    }

    @Test func aNarrowedQueryTypeOrEnumBreaksAWidenedOneDoesNot() throws {
        let narrowed = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""sort": {"type": "string", "required": false}"#, with: #""sort": {"type": "string", "required": false, "enum": ["magic", "popular"]}"#)
        }
        #expect(breaking(narrowed) == ["discover:request.query.sort"])
        let retyped = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""sort": {"type": "string", "required": false}"#, with: #""sort": {"type": "int", "required": false}"#)
        }
        #expect(breaking(retyped) == ["discover:request.query.sort"])
        let widened = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""page": {"type": "int", "required": false}"#, with: #""page": {"type": "string", "required": false}"#)
        }
        #expect(widened.breaking.isEmpty)
    }

    @Test func aQueryKeyThatNoLongerTakesAFormOrABodyTypeNoLongerTakenBreaks() throws {
        let nestedOnly = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""page": {"type": "int", "required": false}"#, with: #""page": {"type": "int", "required": false, "nested": ["gt"]}"#)
        }
        #expect(breaking(nestedOnly) == ["discover:request.query.page"])
        let alsoNested = try diff(editing: "contracts/discover/discover.json") {
            $0.replacingOccurrences(of: #""page": {"type": "int", "required": false}"#, with: #""page": {"type": "int", "required": false, "nested": true, "plain": true}"#)
        }
        #expect(alsoNested.breaking.isEmpty && alsoNested.changes.count == 1)
        let patchTypes = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(
                of: #""location_id": {"type": "int", "required": false}"#,
                with: #""location_id": {"type": "int", "required": false}}, "body": {"contentTypes": ["application/merge-patch+json"]"#)
        }
        #expect(patchTypes.changes.map(\.message) == ["no longer takes a body as application/json", "also takes a body as application/merge-patch+json"])
        #expect(breaking(patchTypes) == ["update_backing:request.body.contentTypes"])
    }

    @Test func aNewRequiredHeaderBodyKeyOrPartBreaks() throws {
        let header = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(
                of: #""headers": {"Authorization": {"prefix": "token "}}"#,
                with: #""headers": {"Authorization": {"prefix": "token "}, "X-Device-Id": {}}"#)
        }
        #expect(breaking(header) == ["update_backing:request.headers.X-Device-Id"])
        let key = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #""reward_id": {"type": "int"},"#, with: #""reward_id": {"type": "int"}, "currency": {"type": "string"},"#)
        }
        #expect(breaking(key) == ["update_backing:request.json.currency"])
        let removedKey = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #""location_id": {"type": "int", "required": false}"#, with: #""location": {"type": "int", "required": false}"#)
        }
        #expect(breaking(removedKey) == ["update_backing:request.json.location_id"])
        let part = try diff(editing: "contracts/drafts/upload_draft_image.json") {
            $0.replacingOccurrences(of: #""maxBytes": 10485760"#, with: #""maxBytes": 10485760}, {"name": "caption""#)
        }
        #expect(breaking(part) == ["upload_draft_image:request.multipart.caption"])
    }

    @Test func aRemovedOrRetypedFixtureKeyBreaksANewKeyDoesNot() throws {
        let removed = try diff(editing: "fixtures/backings/backing.json") { $0.replacingOccurrences(of: #""sequence": 311,"#, with: "") }
        #expect(breaking(removed).contains("update_backing:responses.default.body.$.sequence"))
        #expect(breaking(removed).contains("backing:responses.default.body.$.sequence"))
        let retyped = try diff(editing: "fixtures/backings/backing.json") { $0.replacingOccurrences(of: #""sequence": 311,"#, with: #""sequence": "311","#) }
        #expect(retyped.breaking.first { $0.id == "backing:responses.default.body.$.sequence" }?.message.contains("from int to string") == true)
        let added = try diff(editing: "fixtures/backings/backing.json") { $0.replacingOccurrences(of: #""sequence": 311,"#, with: #""sequence": 311, "note": "x","#) }
        #expect(added.breaking.isEmpty)
        #expect(added.compatible.contains { $0.id == "backing:responses.default.body.$.note" })
    }

    @Test func allowAcceptsABreakByContractOrLocation() throws {
        let edit: (String) -> String = { $0.replacingOccurrences(of: #""PUT""#, with: #""PATCH""#) }
        #expect(try diff(editing: "contracts/backings/update_backing.json", allow: ["update_backing:request.method"], edit).exitCode == 0)
        #expect(try diff(editing: "contracts/backings/update_backing.json", allow: ["update_backing"], edit).exitCode == 0)
        let other = try diff(editing: "contracts/backings/update_backing.json", allow: ["backing"], edit)
        #expect(other.exitCode == 1)
        #expect(DiffReport.text(other, old: "old", new: "new").contains("BREAKING update_backing:request.method: method changed from PUT to PATCH"))
        #expect(DiffReport.junit(other).contains(#"<failure type="breaking" message="update_backing:request.method: method changed from PUT to PATCH"/>"#))
    }
}
