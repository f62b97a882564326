import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Two contracts on one method and path, told apart by a body or query value (`match`), over
/// real sockets; and `when` choosing a response by a JSON body value.
@Suite struct DiscriminatedRouteTests {
    static let contracts = [
        "login.json": #"""
        {"name": "facebook_login", "request": {"method": "PUT", "path": "/v1/facebook/access_token",
          "json": {"access_token": {"type": "string"}, "intent": {"enum": ["login"]}},
          "match": {"json": {"intent": "login"}}},
         "responses": {"default": {"status": 200, "body": {"user": "existing"}}}}
        """#,
        "signup.json": #"""
        {"name": "facebook_signup", "request": {"method": "PUT", "path": "/v1/facebook/access_token",
          "json": {"access_token": {"type": "string"}, "intent": {"enum": ["register"]}, "newsletter": {"type": "bool", "required": false}},
          "match": {"json": {"intent": "register"}}},
         "responses": {"default": {"status": 201, "body": {"user": "new"}},
                       "with_newsletter": {"status": 201, "body": {"user": "new", "newsletter": true}, "when": {"json": {"newsletter": true}}}}}
        """#,
        "friends.json": #"""
        {"name": "find_friends", "request": {"method": "GET", "path": "/v1/users/self/friends/find",
          "query": {"count": {"type": "int", "required": false}}},
         "responses": {"default": {"status": 200, "body": {"friends": []}}}}
        """#,
    ]

    @Test func bodyValueChoosesTheContractAndTheResponse() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            func put(_ body: String) throws -> RawHTTP.Response {
                try RawHTTP.request(server.port, "PUT", "/v1/facebook/access_token", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
            }
            let login = try put(#"{"access_token": "t", "intent": "login"}"#)
            #expect(login.status == 200)
            #expect(login.headers["mockapi-contract"] == "facebook_login")
            let signup = try put(#"{"access_token": "t", "intent": "register"}"#)
            #expect(signup.status == 201)
            #expect(signup.headers["mockapi-contract"] == "facebook_signup")
            let newsletter = try put(#"{"access_token": "t", "intent": "register", "newsletter": true}"#)
            #expect(newsletter.text.contains(#""newsletter":true"#))
            let neither = try put(#"{"access_token": "t", "intent": "merge"}"#)
            #expect(neither.status == 404)
            #expect(
                ProblemDocument(body: neither.body)?.error == "the request fits the path of facebook_login, facebook_signup, "
                    + #"but none of their match rules: facebook_login wants json.intent = "login", the request has "merge"; "#
                    + #"facebook_signup wants json.intent = "register", the request has "merge""#)
            let plainText = try RawHTTP.request(
                server.port, "PUT", "/v1/facebook/access_token", headers: ["Content-Type": "text/plain"],
                body: Data(#"{"access_token": "t", "intent": "register"}"#.utf8))
            #expect(plainText.status == 404)
            #expect(
                ProblemDocument(body: plainText.body)?.error == "the request fits the path of facebook_login, facebook_signup, "
                    + "but none of their match rules: facebook_login wants json.intent = \"login\", the request has no JSON object body; "
                    + "facebook_signup wants json.intent = \"register\", the request has no JSON object body "
                    + "(the body of 43 bytes came with Content-Type: text/plain, so it was not read as JSON: send Content-Type: application/json)")
            let broken = try put(#"{"intent": "login"}"#)
            #expect(broken.status == 422)
            #expect(broken.headers["mockapi-contract"] == "facebook_login")

            let journal = server.journal()
            #expect(journal.map(\.contract) == ["facebook_login", "facebook_signup", "facebook_signup", nil, nil, "facebook_login"])
            #expect(journal.map(\.response) == ["default", "default", "with_newsletter", nil, nil, nil])
        }
    }

    @Test func queryValueChoosesTheContract() async throws {
        var contracts = Self.contracts
        contracts["friends.json"] = #"""
            {"name": "find_friends", "request": {"method": "GET", "path": "/v1/users/self/friends/find",
              "query": {"count": {"type": "int", "enum": [10, 20]}}, "match": {"query": {"count": "10"}}},
             "responses": {"default": {"status": 200, "body": {"friends": []}}}}
            """#
        contracts["stats.json"] = #"""
            {"name": "friend_stats", "request": {"method": "GET", "path": "/v1/users/self/friends/find",
              "query": {"count": {"type": "int"}}, "match": {"query": {"count": 0}}},
             "responses": {"default": {"status": 200, "body": {"stats": {}}}}}
            """#
        let set = try TemporaryContractSet(contracts: contracts)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let stats = try RawHTTP.request(server.port, "GET", "/v1/users/self/friends/find?count=0")
            #expect(stats.headers["mockapi-contract"] == "friend_stats")
            #expect(try RawHTTP.request(server.port, "GET", "/v1/users/self/friends/find?count=10").headers["mockapi-contract"] == "find_friends")
            let neither = try RawHTTP.request(server.port, "GET", "/v1/users/self/friends/find?count=7")
            #expect(neither.status == 404)
            #expect(
                ProblemDocument(body: neither.body)?.error == "the request fits the path of find_friends, friend_stats, but none of "
                    + #"their match rules: find_friends wants query.count = "10", the request has "7"; friend_stats wants query.count = "0", the request has "7""#)
        }
    }

    @Test func sharedPathWithoutAMatchOnEachIsALoadError() throws {
        var contracts = Self.contracts
        contracts["stats.json"] = #"""
            {"name": "friend_stats", "request": {"method": "GET", "path": "/v1/users/self/friends/find", "query": {"count": {"type": "int"}}},
             "responses": {"default": {"status": 200}}}
            """#
        contracts["merge.json"] = #"""
            {"name": "facebook_merge", "request": {"method": "PUT", "path": "/v1/facebook/access_token",
              "json": {"access_token": {"type": "string"}, "intent": {"type": "string"}}, "match": {"json": {"intent": "login"}}},
             "responses": {"default": {"status": 200}}}
            """#
        let set = try TemporaryContractSet(contracts: contracts)
        do {
            _ = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
            Issue.record("overlapping contracts without distinct match rules must not load")
        } catch {
            let report = error.problems.map { $0.description.replacingOccurrences(of: set.contracts.path + "/", with: "") }
            #expect(
                report.contains {
                    $0.hasPrefix("merge.json: $.request.path: PUT /v1/facebook/access_token can match the same requests as /v1/facebook/access_token in ")
                        && $0.hasSuffix("login.json (contract \"facebook_login\")")
                })
            #expect(report.contains { $0.hasPrefix("stats.json: $.request.path: GET /v1/users/self/friends/find can match the same requests as") })
        }
    }
}
