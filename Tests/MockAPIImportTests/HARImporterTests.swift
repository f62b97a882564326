import Foundation
import MockAPICore
import MockAPITestSupport
import Testing

@testable import MockAPIImport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct HARImporterTests {
    /// The contract each recorded entry must reach; nil for the entry that got no answer.
    static let expectedContracts: [String?] = [
        "get_v1_users_me", "get_v1_feed", "get_avatars_1001_png", "get_v1_feed", "get_v1_posts_id",
        "get_v1_posts_id_comments", "get_v1_posts_id_comments", "put_v1_posts_id_like", "get_v1_posts_9999",
        "get_v1_search", "post_v1_posts", "post_v1_posts", "post_v1_users_me_avatar", nil,
    ]

    @Test func aMobileSessionBecomesTemplatedContractsWithTheirExpectations() throws {
        let imported = try HARImporter().importFile(ImportFixtures.session)
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(imported)
        #expect(imported.skipped == 1)
        #expect(imported.warnings == ["mobile-session.har: $.log.entries[13]: GET https://api.snapshot.example/v1/notifications?since=1732093200 got no answer (status 0); skipped"])
        #expect(Set(set.contracts.map(\.name)) == Set(Self.expectedContracts.compactMap { $0 }))

        let post = try #require(set.contract("get_v1_posts_id"))
        #expect(post.request.path.text == "/v1/posts/{id:int}")
        #expect(post.responses.map { "\($0.name) \($0.status)" } == ["default 200"])
        // The id that got a 404 has its own contract on its literal path, which beats the template.
        #expect(set.contract("get_v1_posts_9999")?.responses.map { "\($0.name) \($0.status)" } == ["default 404"])

        let feed = try #require(set.contract("get_v1_feed"))
        #expect(feed.request.query.map { "\($0.name):\($0.type.rawValue):\($0.required)" } == ["limit:int:true", "cursor:string:false"])
        #expect(feed.responses.map(\.name) == ["default", "cursor_c2"])
        #expect(feed.responses[1].when.map { $0.query.map { "\($0.name)=\($0.value)" } } == ["cursor=c2"])

        #expect(set.contract("get_v1_search")?.request.query.map { "\($0.name):\($0.array)" } == ["q:false", "types:true"])
        // Keys in both bodies are required; `location` was sent once.
        #expect(
            set.contract("post_v1_posts")?.request.json?.map { "\($0.key):\($0.type.rawValue):\($0.required)" }
                == ["text:string:true", "media_ids:array:true", "visibility:string:true", "location:object:false"])
        #expect(
            set.contract("post_v1_users_me_avatar")?.request.multipart?.map { "\($0.name):\($0.filename):\($0.contentTypes ?? [])" }
                == ["avatar:true:[\"image/jpeg\"]", "crop:false:[]"])
        let image = try #require(set.contract("get_avatars_1001_png")?.responses.first)
        #expect(image.fixture == "avatars/get_avatars_1001_png.png")
        #expect(image.contentType == "image/png")
        #expect(image.body.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(set.contract("put_v1_posts_id_like")?.responses.map { "\($0.status) \($0.body.count)" } == ["204 0"])
        #expect(try scratch.text("fixtures/posts/get_v1_posts_id_comments_page_2.json").hasPrefix("{\n  \"comments\": [\n    {\n      \"id\": 3,"))
    }

    /// Every recorded request, sent again to a server on the imported set, reaches the contract
    /// made from its group with the recorded status, and pages come back as recorded.
    @Test func replayingEveryEntryAgainstTheImportedSetMatchesItsContractAndStatus() async throws {
        let archive = try HARArchive.load(ImportFixtures.session)
        let scratch = try ScratchFolder()
        let set = try scratch.writeAndLoad(HARImporter().importArchive(archive, file: "mobile-session.har"))
        try await withMockServer(contracts: scratch.contracts, fixtures: scratch.fixtures) { server in
            for (index, entry) in archive.log.entries.enumerated() {
                guard let contractName = Self.expectedContracts[index] else { continue }
                let contract = try #require(set.contract(contractName))
                let defaultStatus = contract.responses[contract.defaultResponseIndex].status
                let (data, response) = try await Self.replay(entry, to: server.baseURL, preferStatus: entry.response.status == defaultStatus ? nil : entry.response.status)
                let label = "entry \(index): \(entry.request.method) \(entry.request.url)"
                #expect(response.value(forHTTPHeaderField: "Mockapi-Contract") == contractName, "\(label): \(String(decoding: data, as: UTF8.self))")
                #expect(response.statusCode == entry.response.status, "\(label): \(String(decoding: data, as: UTF8.self))")
                if contractName == "get_v1_feed" || contractName == "get_v1_posts_id_comments", let text = entry.response.content?.text {
                    // Links to the hosts the capture talked to now point at the mock.
                    let base = server.baseURL.absoluteString.trimmingCharacters(in: ["/"])
                    let expected = text.replacingOccurrences(of: "https://api.snapshot.example", with: base)
                        .replacingOccurrences(of: "https://cdn.snapshot.example", with: base)
                    #expect(try JSONParser.parse(Array(data)) == JSONParser.parse(expected), "\(label): the recorded page")
                }
            }
            let journal = server.journal()
            #expect(journal.count == Self.expectedContracts.compactMap { $0 }.count)
            #expect(journal.allSatisfy { $0.problem == nil }, "\(journal.compactMap(\.problem))")
            #expect(journal.first { $0.contract == "post_v1_users_me_avatar" }?.parts.map(\.name) == ["avatar", "crop"])
        }
    }

    /// The request as recorded: method, path and query, Authorization, and the body (a multipart
    /// body rebuilt from `postData.params`, as browser and proxy exports keep it).
    static func replay(_ entry: HARArchive.Entry, to base: URL, preferStatus: Int?) async throws -> (Data, HTTPURLResponse) {
        let recorded = try #require(URLComponents(string: entry.request.url))
        var url = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        url.percentEncodedPath = recorded.percentEncodedPath
        url.percentEncodedQuery = recorded.percentEncodedQuery
        var request = URLRequest(url: try #require(url.url))
        request.httpMethod = entry.request.method
        for header in entry.request.headers ?? [] where header.name == "Authorization" {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if let preferStatus { request.setValue("code=\(preferStatus)", forHTTPHeaderField: "Prefer") }
        if let post = entry.request.postData {
            if let params = post.params {
                let boundary = "replay-\(UUID().uuidString)"
                var body = Data()
                for param in params {
                    body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(param.name)\"".utf8)
                    if let fileName = param.fileName { body += Data("; filename=\"\(fileName)\"".utf8) }
                    body += Data("\r\n".utf8)
                    if let type = param.contentType { body += Data("Content-Type: \(type)\r\n".utf8) }
                    body += Data("\r\n\(param.value ?? "")\r\n".utf8)
                }
                body += Data("--\(boundary)--\r\n".utf8)
                request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
                request.httpBody = body
            } else {
                request.setValue(post.mimeType, forHTTPHeaderField: "Content-Type")
                request.httpBody = Data((post.text ?? "").utf8)
            }
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }
}
