import Foundation
import Testing

@testable import ClientKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct APIClientURLRequestTests {
    private func client(
        _ environment: APIEnvironment = .local(port: 8080),
        token: String? = nil
    ) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                environment: environment, appName: "Backer", appVersion: "2.1", language: "de", token: token, timeout: 12
            ))
    }

    @Test func defaultHeadersArePresent() throws {
        let request = try client(token: "abc").urlRequest(for: Endpoint(.get, "/v1/users/self"))
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "Backer/2.1 (ClientKit)")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "de")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "token abc")
        #expect(request.timeoutInterval == 12)
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
    }

    @Test func noTokenMeansNoAuthorization() throws {
        let request = try client().urlRequest(for: Endpoint(.get, "/v1/users/self"))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func endpointHeadersOverrideDefaultsInAnySpelling() throws {
        let endpoint = Endpoint(.get, "/v1/x", headers: ["accept": "text/csv", "Prefer": "example=not_found"])
        let request = try client().urlRequest(for: endpoint)
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/csv")
        #expect(request.value(forHTTPHeaderField: "Prefer") == "example=not_found")
    }

    @Test func urlJoinsBaseURLPathAndQuery() throws {
        let endpoint = Endpoint(.delete, "/v1/projects/1/backers/2", query: [QueryItem("note", "a b")])
        let request = try client().urlRequest(for: endpoint)
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/v1/projects/1/backers/2?note=a%20b")
        #expect(request.httpMethod == "DELETE")
    }

    @Test func environmentSwitchChangesTheURL() throws {
        let endpoint = Endpoint(.get, "/v1/projects")
        let staging = APIEnvironment(name: "staging", baseURL: URL(string: "https://staging.example.com/api/")!)
        #expect(try client(.local(port: 4321)).urlRequest(for: endpoint).url?.absoluteString == "http://127.0.0.1:4321/v1/projects")
        #expect(try client(staging).urlRequest(for: endpoint).url?.absoluteString == "https://staging.example.com/api/v1/projects")
    }

    @Test func pathCharactersOutsideURLPathsAreEscaped() throws {
        let request = try client().urlRequest(for: Endpoint(.get, "/v1/tags/summer fun/%C3%A9"))
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/v1/tags/summer%20fun/%C3%A9")
    }

    @Test func jsonBodyUsesSnakeCaseKeys() throws {
        struct Update: Encodable { var amount: Double; var rewardId: Int; var note: String? }
        let endpoint = Endpoint(.put, "/v1/backing", body: .json(Update(amount: 10.5, rewardId: 7, note: nil)))
        let request = try client().urlRequest(for: endpoint)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"amount":10.5,"reward_id":7}"#)
    }

    @Test func nextPageURLsResolveAgainstTheBaseURL() throws {
        let staging = client(APIEnvironment(name: "staging", baseURL: URL(string: "https://staging.example.com/api")!))
        #expect(try staging.url(resolving: "/v1/feed?page=2").absoluteString == "https://staging.example.com/api/v1/feed?page=2")
        #expect(try staging.url(resolving: "v1/feed?page=2").absoluteString == "https://staging.example.com/api/v1/feed?page=2")
        #expect(try staging.url(resolving: "https://cdn.example.com/feed?page=2").absoluteString == "https://cdn.example.com/feed?page=2")
    }

    @Test func tokenIsNotSentToAForeignHost() throws {
        let authorized = client(token: "secret")
        let endpoint = Endpoint(.get, "/feed")
        let foreign = try authorized.urlRequest(endpoint, at: URL(string: "https://cdn.example.com/feed?page=2")!)
        let own = try authorized.urlRequest(endpoint, at: URL(string: "http://127.0.0.1:8080/feed?page=2")!)
        #expect(foreign.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(own.value(forHTTPHeaderField: "Authorization") == "token secret")
    }
}
