import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// `request.credentials`: an API that takes an API key header, HTTP Basic or a client key in the
/// query (Adyen's `security`) keeps any one of them and answers its own 401 without. Sent by curl.
struct CredentialTests {
    static let contract = #"""
        {"name": "get_account",
         "request": {"method": "GET", "path": "/accounts/{id}",
           "query": {"limit": {"type": "int", "required": false}},
           "credentials": {"anyOf": [{"header": "X-API-Key"}, {"header": "Authorization", "prefix": "Basic "}, {"query": "clientKey"}],
                           "refusal": "unauthorized"}},
         "responses": {"default": {"status": 200, "body": {"id": "A1"}},
                       "unauthorized": {"status": 401, "body": {"errorCode": "00_401"}}}}
        """#

    private func curl(_ server: RunningMockServer, _ target: String, _ headers: [String] = []) throws -> (status: String, body: String) {
        let output = try ExternalTool.run(
            ["curl", "-sS", "-w", "\n%{http_code}"] + headers.flatMap { ["-H", $0] }
                + ["http://127.0.0.1:\(server.port)\(target)"]
        ).stdout
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func anyOneCredentialKeepsTheContractAndNoneGetsTheAPIs401() async throws {
        let set = try TemporaryContractSet(contracts: ["account.json": Self.contract])
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            #expect(try curl(server, "/accounts/7", ["X-API-Key: k"]).status == "200")
            #expect(try curl(server, "/accounts/7", ["Authorization: Basic dTpw"]).status == "200")
            // The query credential is no unexpected key, and an empty value is still one given.
            #expect(try curl(server, "/accounts/7?limit=5&clientKey=").status == "200")
            let none = try curl(server, "/accounts/7?limit=5")
            #expect(none.status == "401")
            #expect(none.body == #"{"errorCode":"00_401"}"#)
            // A header with the wrong scheme is not the Basic credential.
            #expect(try curl(server, "/accounts/7", ["Authorization: Bearer t"]).status == "401")
            #expect(
                server.journal().last?.problem
                    == #"credentials: no credential given (any one of: X-API-Key header; Authorization header starting "Basic "; clientKey query key)"#)
        }
    }

    @Test func brokenCredentialsAreLoadErrorsWithTheirPath() throws {
        let broken = Self.contract
            .replacingOccurrences(of: #"{"query": "clientKey"}"#, with: #"{"query": "clientKey", "prefix": "x"}, {"cookie": "s"}"#)
            .replacingOccurrences(of: #""refusal": "unauthorized"}},"#, with: #""refusal": "nope"}},"#)
        let set = try TemporaryContractSet(contracts: ["account.json": broken])
        do {
            _ = try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures)
            Issue.record("loaded")
        } catch {
            let messages = error.problems.map(\.description)
            #expect(messages.contains { $0.hasSuffix(#"$.request.credentials.anyOf[2].prefix: a prefix is for a header credential ("Basic ", "Bearer ")"#) })
            #expect(messages.contains { $0.contains(#"$.request.credentials.anyOf[3]"#) })
            #expect(messages.contains { $0.hasSuffix(#"$.request.credentials.refusal: no response named "nope" (have: default, unauthorized)"#) })
        }
    }
}
