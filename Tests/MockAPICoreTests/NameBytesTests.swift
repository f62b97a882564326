import Foundation
import Testing

@testable import MockAPICore

/// The names the journal copies as bytes (`NameBytes`) are the contracts' and responses' own, and
/// what the journal reads back from them is the same text a `RequestRecord` with Strings gives.
struct NameBytesTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyContractAndResponseNameOfTheBundledSetReadsBackWhole() throws {
        let set = try ContractSet.load(
            contracts: Self.repository.appending(path: "contracts"),
            fixtures: Self.repository.appending(path: "fixtures"))
        let names = Responder(set: set).names
        #expect(set.contracts.count > 10)
        for (index, contract) in set.contracts.enumerated() {
            #expect(String(decoding: names.contract(index), as: UTF8.self) == contract.name)
            for (response, definition) in contract.responses.enumerated() {
                #expect(String(decoding: names.response(contract: index, response: response), as: UTF8.self) == definition.name)
            }
        }
    }

    @Test func theJournalReadsNamesGivenAsBytesAsItReadsStrings() {
        let journal = RequestJournal(capacity: 10)
        var path = "/v1/café"
        path.withUTF8 { path in
            let record = RequestRecord(
                method: "PATCH", query: [QueryArgument("q", "ü"), QueryArgument("flag", nil)], headers: [("X-Run", "7")],
                contract: "cafés-über", response: "naïve", status: 201, problem: "no: ☕")
            journal.record(record, path: UnsafeRawBufferPointer(path))
            Array("cafés-über".utf8).withUnsafeBytes { contract in
                journal.record(
                    JournaledRequest(
                        receivedAt: 0, method: "PATCH", path: UnsafeRawBufferPointer(path), query: [QueryArgument("q", "ü"), QueryArgument("flag", nil)],
                        headers: [("X-Run", "7")], bodyBytes: 0, parts: [], contract: contract, response: nil, status: 201,
                        problem: "no: ☕"))
            }
        }
        let entries = journal.entries()
        #expect(entries.map(\.contract) == ["cafés-über", "cafés-über"])
        #expect(entries.map(\.response) == ["naïve", nil])
        #expect(entries.map(\.path) == ["/v1/café", "/v1/café"])
        #expect(entries.map(\.query) == ["q=%C3%BC&flag", "q=%C3%BC&flag"])
        #expect(entries.map(\.problem) == ["no: ☕", "no: ☕"])
    }
}
