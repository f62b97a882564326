import Foundation
import Testing

@testable import MockAPICore

/// The server answers plain requests (no query, no body, no Prefer) from a table decided at
/// load; these pin that table to what the full validation and selection would choose.
struct PlainResponseTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func responder(_ contracts: [Contract]) -> Responder {
        Responder(
            set: ContractSet(
                contracts: contracts, routes: RouteTable(contracts: contracts),
                contractsDirectory: "contracts", fixturesDirectory: "fixtures"))
    }

    @Test func everyBundledPlainAnswerIsTheOneRespondChooses() throws {
        let set = try ContractSet.load(
            contracts: Self.repository.appending(path: "contracts"),
            fixtures: Self.repository.appending(path: "fixtures"))
        let responder = Responder(set: set)
        var fixed = 0
        for index in set.contracts.indices {
            let full = responder.respond(toContract: index, request: IncomingRequest(), path: UnsafeBufferPointer(start: nil, count: 0)).answer
            guard let plain = responder.plainResponse(toContract: index, query: [], bodyBytes: 0, prefer: nil) else {
                // Then a plain request either breaks the contract or meets a sequence.
                if case .prepared = full { #expect(set.contracts[index].sequence != nil, "\(set.contracts[index].name)") }
                continue
            }
            fixed += 1
            guard case .prepared(let contract, let response) = full else {
                Issue.record("\(set.contracts[index].name): plain answer \(plain), but respond reports violations")
                continue
            }
            #expect(contract == index && response == plain, "\(set.contracts[index].name)")
        }
        #expect(fixed >= set.contracts.count / 2)
    }

    @Test func stepsAsideWhenAPlainRequestCouldGetAnotherAnswer() throws {
        let page2 = ResponseDefinition(name: "page2", status: 200, body: [], contentType: nil, when: RequestMatch(query: [("cursor", "2")]))
        let contracts = [
            try Contract.make(name: "plain", path: "/a"),
            try Contract.make(
                name: "optional_query", path: "/b", query: [QueryExpectation(name: "page", type: .int, required: false)],
                responses: [ResponseDefinition(name: "default", status: 200, body: [], contentType: nil), page2]),
            try Contract.make(name: "required_query", path: "/c", query: [QueryExpectation(name: "page", type: .int)]),
            try Contract.make(name: "required_header", path: "/d", headers: [HeaderExpectation(name: "Authorization")]),
            try Contract.make(name: "json_body", method: .PUT, path: "/e", json: []),
            try Contract.make(name: "sequence", path: "/f", sequence: [0]),
        ]
        let responder = responder(contracts)
        #expect(responder.plainResponse(toContract: 0, query: [], bodyBytes: 0, prefer: nil) == 0)
        #expect(responder.plainResponse(toContract: 0, query: [], bodyBytes: 0, prefer: "code=200") == nil)
        #expect(responder.plainResponse(toContract: 0, query: [QueryArgument("page", "2")], bodyBytes: 0, prefer: nil) == nil)
        #expect(responder.plainResponse(toContract: 0, query: [], bodyBytes: 3, prefer: nil) == nil)
        #expect(responder.plainResponse(toContract: 1, query: [], bodyBytes: 0, prefer: nil) == 0)
        for index in 2...5 {
            #expect(responder.plainResponse(toContract: index, query: [], bodyBytes: 0, prefer: nil) == nil, "\(contracts[index].name)")
        }
    }
}
