import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Rules of the inference the acceptance capture does not show on its own.
struct TrafficInferenceTests {
    /// Polly.js writes a header sent twice as one entry whose value is an array.
    @Test func pollyArrayValuedHeadersAreRead() throws {
        let folder = try ScratchFolder()
        let har = folder.url.appendingPathComponent("polly.har")
        try Data(
            #"""
            {"log": {"entries": [{"request": {"method": "GET", "url": "https://api.example.com/v1/me",
              "headers": [{"name": "authorization", "value": ["Bearer abc"]}, {"name": "accept", "value": ["application/json", "text/plain"]}]},
              "response": {"status": 200, "headers": [{"name": "set-cookie", "value": ["a=1", "b=2"]}],
                           "content": {"mimeType": "application/json", "text": "{\"id\": 1}"}}}]}}
            """#.utf8
        ).write(to: har)
        let set = try folder.writeAndLoad(HARImporter().importFile(har))
        #expect(set.contract("get_v1_me")?.request.headers.map { "\($0.name) \($0.prefixes)" } == ["authorization [\"Bearer \"]"])
    }

    /// Same path, same body keys, a key whose value decides the answer: one contract whose
    /// responses are chosen by `when.json`, each request replaying to its own answer.
    @Test func sameKeysDifferentAnswersBecomeWhenJSON() async throws {
        func post(_ type: String, _ status: Int, _ answer: String) -> RecordedExchange {
            RecordedExchange(
                method: "POST", url: "https://api.example.com/v1/events", requestHeaders: [HTTPField("Content-Type", "application/json")],
                requestBody: Array(#"{"type": "\#(type)", "at": 17}"#.utf8), status: status,
                responseHeaders: [HTTPField("Content-Type", "application/json")], responseBody: Array(answer.utf8))
        }
        let exchanges = [post("view", 201, #"{"id": 1}"#), post("click", 202, #"{"queued": true}"#), post("view", 201, #"{"id": 1}"#)]
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(TrafficInference(source: "test").infer(exchanges))
        let contract = try #require(set.contracts.first)
        #expect(set.contracts.count == 1)
        #expect(contract.request.match == nil)
        #expect(contract.responses.map(\.name) == ["default", "type_click"])
        #expect(contract.responses[1].when?.description == "json.type = \"click\"")
        try await withMockServer(contracts: scratch.contracts, fixtures: scratch.fixtures) { server in
            for (type, status) in [("click", 202), ("view", 201)] {
                var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/events"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"type": "\#(type)", "at": 17}"#.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == status)
            }
        }
    }

    /// A free-text value (a post's text) never becomes a discriminator, and a host the capture did
    /// not talk to stays in the fixture.
    @Test func freeTextIsNoDiscriminatorAndOtherHostsStay() throws {
        let exchanges = ["morning run", "lunch"].enumerated().map { index, text in
            RecordedExchange(
                method: "POST", url: "https://api.example.com/v1/posts", requestHeaders: [HTTPField("Content-Type", "application/json")],
                requestBody: Array(#"{"text": "\#(text)"}"#.utf8), status: 201,
                responseHeaders: [HTTPField("Content-Type", "application/json")],
                responseBody: Array(#"{"id": \#(index), "image": "https://cdn.example.net/\#(index).jpg", "self": "https://api.example.com/v1/posts/\#(index)"}"#.utf8))
        }
        let set = TrafficInference(source: "test").infer(exchanges)
        #expect(set.contracts.map(\.name) == ["post_v1_posts"])
        let fixture = String(decoding: set.fixtures[0].bytes, as: UTF8.self)
        #expect(fixture.contains("\"https://cdn.example.net/0.jpg\"") && fixture.contains("\"{{baseURL}}/v1/posts/0\""))
    }
}
