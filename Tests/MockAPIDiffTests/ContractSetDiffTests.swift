import Foundation
import FoundationNetworking
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

    /// Two edited copies of the bundled set: `before` applied to the old one, `after` to the new one.
    private func diff(editing path: String, before: (String) -> String, after: (String) -> String) throws -> ContractSetDiff {
        let old = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let new = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let original = try String(contentsOf: old.root.appendingPathComponent(path), encoding: .utf8)
        try old.write(before(original), to: path)
        try new.write(after(original), to: path)
        return ContractSetDiff(
            old: try ContractSet.load(contracts: old.contracts, fixtures: old.fixtures),
            new: try ContractSet.load(contracts: new.contracts, fixtures: new.fixtures))
    }

    private static func sequenced(_ text: String) -> String {
        text.replacingOccurrences(of: "\n  }\n}", with: "\n  },\n  \"sequence\": [\"default\", \"page2\"]\n}")
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
            $0.replacingOccurrences(of: #""invalid": {"status": 422"#, with: #""rejected": {"status": 409"#)
        }
        #expect(breaking(diff) == ["update_backing:responses.invalid"])
        #expect(diff.compatible.map(\.id) == ["update_backing:responses.rejected"])
    }

    /// Same status and fixture under another name: one finding, not a removed and a new response.
    @Test func aRenamedResponseIsOneCompatibleFinding() throws {
        let diff = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #""invalid": {"status": 422"#, with: #""rejected": {"status": 422"#)
        }
        #expect(diff.breaking.isEmpty)
        #expect(
            diff.changes.map(\.description) == [
                "compatible update_backing:responses.invalid: response invalid (422) renamed to rejected, same status and body (a Prefer: example=invalid must follow)"
            ])
    }

    /// A renamed response in a sequence, in the same place: the turn an app sees is the same.
    @Test func aRenamedResponseKeepsItsPlaceInTheSequence() throws {
        let diff = try diff(editing: "contracts/activities/activities.json", before: Self.sequenced) {
            Self.sequenced($0).replacingOccurrences(of: "page2", with: "second").replacingOccurrences(of: "activities/second.json", with: "activities/page2.json")
        }
        #expect(diff.changes.map(\.id) == ["activities:responses.page2"])
        #expect(diff.changes.first?.message.hasPrefix("response page2 (200) renamed to second") == true)
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

    /// What a response does besides its status and body: each change an app sees is a finding.
    @Test func whenSequencePlaceholdersFaultAndDelayAreFindings() throws {
        let page2 = #""page2": {"status": 200, "fixture": "activities/page2.json", "when": {"query": {"cursor": "2"}}}"#
        let noWhen = try diff(editing: "contracts/activities/activities.json") {
            $0.replacingOccurrences(of: page2, with: #""page2": {"status": 200, "fixture": "activities/page2.json"}"#)
        }
        #expect(
            noWhen.changes.map(\.description) == [
                #"BREAKING activities:responses.page2.when: no longer served when query.cursor = "2": such requests got 200, now the default answer"#
            ])
        let otherValue = try diff(editing: "contracts/activities/activities.json") { $0.replacingOccurrences(of: #""cursor": "2""#, with: #""cursor": "3""#) }
        #expect(breaking(otherValue) == ["activities:responses.page2.when"])
        #expect(otherValue.breaking.first?.message.contains(#"was served when query.cursor = "2", now when query.cursor = "3""#) == true)
        let addedWhen = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(
                of: #""invalid": {"status": 422, "fixture": "errors/unprocessable.json""#, with: #""invalid": {"status": 422, "fixture": "errors/unprocessable.json", "when": {"json": {"amount": 0}}"#)
        }
        #expect(breaking(addedWhen) == ["update_backing:responses.invalid.when"])

        let withSequence = try diff(editing: "contracts/activities/activities.json", Self.sequenced)
        #expect(breaking(withSequence) == ["activities:sequence"])
        let removedSequence = try diff(editing: "contracts/activities/activities.json", before: Self.sequenced) { $0 }
        #expect(
            removedSequence.changes.map(\.description) == [
                "BREAKING activities:sequence: responses are no longer served in turn (was default, page2): every request gets the default answer"
            ])

        let literal = try diff(editing: "contracts/activities/activities.json") {
            $0.replacingOccurrences(of: #""fixture": "activities/page1.json"}"#, with: #""fixture": "activities/page1.json", "placeholders": false}"#)
        }
        #expect(
            literal.changes.map(\.description) == [
                "BREAKING activities:responses.default.placeholders: placeholders are no longer filled (placeholders: false): clients get the {{…}} text as it is"
            ])

        let fault = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #""fixture": "backings/backing.json"}"#, with: #""fixture": "backings/backing.json", "fault": "reset"}"#)
        }
        #expect(
            fault.changes.map(\.description) == [
                "BREAKING update_backing:responses.default.fault: now answers with a fault (reset): clients get a network error instead of 200"
            ])
        let delay = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #""fixture": "backings/backing.json"}"#, with: #""fixture": "backings/backing.json", "delay": {"min": 200, "max": 800}}"#)
        }
        #expect(
            delay.changes.map(\.description) == [
                "compatible update_backing:responses.default.delay: now waits 200-800 ms before answering (a client whose timeout is shorter fails)"
            ])
        #expect(delay.exitCode == 0)
    }

    /// Every message that names an old and a new value says the old one first: "was X, now Y".
    @Test func changedValuesReadWasThenNow() throws {
        let prefix = try diff(editing: "contracts/backings/update_backing.json") {
            $0.replacingOccurrences(of: #"{"prefix": "token "}"#, with: #"{"prefix": "Bearer "}"#)
        }
        #expect(prefix.changes.map(\.description) == [#"BREAKING update_backing:request.headers.Authorization: prefix was "token ", now "Bearer ""#])
        let smaller = try diff(editing: "contracts/drafts/upload_draft_image.json") {
            $0.replacingOccurrences(of: #""maxBytes": 10485760"#, with: #""maxBytes": 1048576"#)
        }
        #expect(smaller.changes.map(\.message) == ["was at most 10485760 bytes, now at most 1048576 bytes"])
    }

    /// The objects a body may be (`body.oneOf`): new options break, dropping them does not, and
    /// a kept option is compared key by key.
    @Test func aBodysOptionsAreComparedOptionByOption() throws {
        let path = "contracts/backings/update_backing.json"
        let keys = #""location_id": {"type": "int", "required": false}\#n    }"#
        let options = { (reward: String) in
            { (text: String) in
                text.replacingOccurrences(
                    of: keys,
                    with: keys + #",\#n    "body": {"oneOf": [{"properties": {"kind": {"enum": ["a"]}}}, {"properties": {"kind": {"enum": [\#(reward)]}}}]}"#)
            }
        }
        let added = try diff(editing: path, options(#""b""#))
        #expect(added.changes.map(\.description) == ["BREAKING update_backing:request.body.oneOf: the body must now fit one of 2 objects"])
        let dropped = try diff(editing: path, before: options(#""b""#), after: { $0 })
        // Without them, the key they named is refused again.
        #expect(
            dropped.changes.map(\.description) == [
                "BREAKING update_backing:request.json: no longer takes keys it does not name (a client that sends one gets 422)",
                "compatible update_backing:request.body.oneOf: the body no longer needs to fit one of its 2 objects",
            ])
        let narrowed = try diff(editing: path, before: options(#""b", "c""#), after: options(#""b""#))
        #expect(narrowed.changes.map(\.description) == ["BREAKING update_backing:request.body.oneOf[1].kind: no longer accepts \"c\""])
    }

    /// A key an open request object (`otherKeys`) no longer names is still taken: the finding is
    /// compatible, and the new set, served, answers the old client's request with 200.
    @Test func aKeyAnOpenObjectNoLongerNamesIsCompatibleAndStillAnswered() async throws {
        let open = { (text: String) in
            text.replacingOccurrences(
                of: #""location_id": {"type": "int", "required": false}\#n    }"#, with: #""location_id": {"type": "int", "required": false}\#n    },\#n    "body": {"otherKeys": true}"#)
        }
        let dropped = { (text: String) in open(text).replacingOccurrences(of: #",\#n      "location_id": {"type": "int", "required": false}"#, with: "") }
        let path = "contracts/backings/update_backing.json"
        let opened = try diff(editing: path, before: open, after: dropped)
        #expect(opened.breaking.isEmpty)
        #expect(
            opened.changes.map(\.description) == [
                "compatible update_backing:request.json.location_id: key location_id is no longer named, and still taken: the object takes keys it does not name (a client that sends it gets the answer, not a 422)"
            ])
        let closed = try diff(editing: path, before: { $0 }, after: { $0.replacingOccurrences(of: #",\#n      "location_id": {"type": "int", "required": false}"#, with: "") })
        #expect(breaking(closed) == ["update_backing:request.json.location_id"])
        let closing = try diff(editing: path, before: open, after: { $0 })
        #expect(closing.changes.map(\.description) == ["BREAKING update_backing:request.json: no longer takes keys it does not name (a client that sends one gets 422)"])

        // The proof: the old client's request, location_id included, sent to each new set served:
        // the open object answers 200, the closed one (the breaking finding) 422.
        #expect(try await status(of: path, in: dropped) == 200)
        #expect(try await status(of: path, in: { $0.replacingOccurrences(of: #",\#n      "location_id": {"type": "int", "required": false}"#, with: "") }) == 422)
    }

    /// The status an old client's update_backing request (with location_id) gets from the bundled
    /// set with `edit` applied to the file at `path`, served on a real socket.
    private func status(of path: String, in edit: (String) -> String) async throws -> Int? {
        let new = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        try new.write(edit(try String(contentsOf: new.root.appendingPathComponent(path), encoding: .utf8)), to: path)
        return try await withMockServer(contracts: new.contracts, fixtures: new.fixtures) { server in
            var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/projects/1/backers/2"))
            request.httpMethod = "PUT"
            request.setValue("token abc", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"amount": 5, "reward_id": 3, "location_id": 7}"#.utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode
        }
    }
}
