import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Nested query parts and request media types on the wire, sent by curl (so neither the query
/// string nor the body is ours): Stripe's `created[gt]=1` and `expand[0]=a`, Kubernetes' PATCH
/// types, a petstore form, Moby's tar upload.
struct BodyFormsOnTheWireTests {
    static let contracts = [
        "charges.json": #"""
        {"name": "list_charges",
         "request": {"method": "GET", "path": "/v1/charges",
           "query": {"created": {"type": "int", "required": false, "nested": ["gt", "gte", "lt", "lte"], "plain": true},
                     "expand": {"required": false, "array": "repeated", "nested": true},
                     "metadata": {"required": false, "nested": true}}},
         "responses": {"default": {"status": 200, "body": {"data": []}}}}
        """#,
        "patch.json": #"""
        {"name": "patch_deployment",
         "request": {"method": "PATCH", "path": "/apis/apps/v1/deployments/{name}",
           "json": {"spec": {"type": "object", "required": false}},
           "body": {"contentTypes": ["application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"]}},
         "responses": {"default": {"status": 200, "body": {"kind": "Deployment"}}}}
        """#,
        "pet.json": #"""
        {"name": "add_pet",
         "request": {"method": "POST", "path": "/pet",
           "json": {"name": {"type": "string"}, "age": {"type": "int", "required": false}},
           "body": {"contentTypes": ["application/json", "application/x-www-form-urlencoded", "application/xml"]}},
         "responses": {"default": {"status": 200, "body": {"id": 1}}}}
        """#,
        "build.json": #"""
        {"name": "image_build",
         "request": {"method": "POST", "path": "/build", "body": {"required": false, "contentTypes": ["application/x-tar"]}},
         "responses": {"default": {"status": 200, "body": {"stream": "ok"}}}}
        """#,
    ]

    /// Status and body; `-g` so curl sends brackets in the URL as they are.
    private func curl(_ arguments: [String]) throws -> (status: String, body: String) {
        let output = try ExternalTool.run(["curl", "-sS", "-g", "-w", "\n%{http_code}"] + arguments).stdout
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func nestedQueryPartsAreTakenInEveryClientsFormAndChecked() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let url = server.baseURL.absoluteString + "/v1/charges"
            for query in [
                "created[gt]=1&created[lte]=9", "created=5", "expand=customer&expand=invoice", "expand[]=customer",
                "expand[0]=customer&expand[1]=invoice", "metadata[order_id]=6735&metadata[a][b]=x",
            ] {
                #expect(try curl([url + "?" + query]).status == "200", "\(query)")
            }
            let refused = try curl([url + "?created[after]=1&created[gt]=soon&expand[customer]=x"])
            #expect(refused.status == "422")
            #expect(refused.body.contains(#"unexpected part \"after\" (the contract names: gt, gte, lt, lte)"#))
            #expect(refused.body.contains(#"expected int, found \"soon\""#))
            #expect(refused.body.contains("query.expand[customer]"))
        }
    }

    @Test func listedJSONTypesAreReadAsJSONAndOthersAreRefusedByName() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let url = server.baseURL.absoluteString + "/apis/apps/v1/deployments/web"
            func patch(_ type: String, _ body: String) throws -> (status: String, body: String) {
                try curl(["-X", "PATCH", "-H", "Content-Type: \(type)", "--data-binary", body, url])
            }
            #expect(try patch("application/merge-patch+json", #"{"spec": {"replicas": 3}}"#).status == "200")
            #expect(try patch("application/strategic-merge-patch+json; charset=utf-8", "{}").status == "200")
            // Not read: YAML is taken as it is.
            #expect(try patch("application/apply-patch+yaml", "spec:\n  replicas: 3\n").status == "200")
            let unknownKey = try patch("application/merge-patch+json", #"{"sepc": {}}"#)
            #expect(unknownKey.status == "422")
            #expect(unknownKey.body.contains("body.sepc"))
            let notJSON = try patch("application/merge-patch+json", "{oops")
            #expect(notJSON.status == "422")
            #expect(notJSON.body.contains("not valid JSON"))
            let unlisted = try patch("application/json", "{}")
            #expect(unlisted.status == "422")
            #expect(
                unlisted.body.contains(
                    "Content-Type application/json is not one the contract takes (application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml)"))
        }
    }

    @Test func aFormIsCheckedByTheContractsKeys() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let url = server.baseURL.absoluteString + "/pet"
            #expect(try curl(["--data-urlencode", "name=Rex the 2nd", "-d", "age=3", url]).status == "200")
            #expect(try curl(["-H", "Content-Type: application/json", "-d", #"{"name": "Rex"}"#, url]).status == "200")
            #expect(try curl(["-H", "Content-Type: application/xml", "-d", "<pet><name>Rex</name></pet>", url]).status == "200")
            let bad = try curl(["-d", "age=three", "-d", "colour=red", url])
            #expect(bad.status == "422")
            #expect(bad.body.contains(#"body.age"#) && bad.body.contains(#"expected int, found \"three\""#))
            #expect(bad.body.contains("body.name") && bad.body.contains("required key is missing"))
            #expect(bad.body.contains("body.colour") && bad.body.contains("unexpected key"))
            let text = try curl(["-H", "Content-Type: text/plain", "-d", "Rex", url])
            #expect(text.status == "422")
            #expect(text.body.contains("Content-Type text/plain is not one the contract takes"))
        }
    }

    @Test func aBinaryBodyOfAListedTypeIsTakenUnread() async throws {
        let set = try TemporaryContractSet(contracts: Self.contracts)
        let archive = set.root.appendingPathComponent("context.tar")
        try Data((0..<2048).map { UInt8($0 % 251) }).write(to: archive)
        try await withMockServer(contracts: set.contracts, fixtures: set.fixtures) { server in
            let url = server.baseURL.absoluteString + "/build"
            #expect(try curl(["-H", "Content-Type: application/x-tar", "--data-binary", "@\(archive.path)", url]).status == "200")
            #expect(try curl(["-X", "POST", url]).status == "200") // optional: no body at all
            let json = try curl(["-H", "Content-Type: application/json", "-d", "{}", url])
            #expect(json.status == "422")
            #expect(json.body.contains("Content-Type application/json is not one the contract takes (application/x-tar)"))
        }
    }
}
