import Testing

@testable import MockAPICore

/// Query keys with nested parts, as Stripe's deepObject parameters are sent: by schemathesis and
/// Python's requests (`expand=a&expand=b`, `created[gt]=1`), by Stripe's own clients (`expand[0]=a`)
/// and by Rails and Alamofire (`expand[]=a`).
struct NestedQueryTests {
    private func violations(_ query: [QueryArgument], _ expected: [QueryExpectation]) throws -> [String] {
        let contract = try Contract.make(query: expected)
        return RequestValidator.violations(of: IncomingRequest(query: query), against: contract.request).map(\.description)
    }

    private let created = QueryExpectation(name: "created", type: .int, required: false, nested: .init(keys: ["gt", "gte", "lt", "lte"], plain: true))
    private let expand = QueryExpectation(name: "expand", required: false, arrayStyle: .repeated, nested: .init())
    private let relationship = QueryExpectation(name: "relationship", type: .bool, required: false, nested: .init(keys: ["director", "owner"]))
    private let metadata = QueryExpectation(name: "metadata", required: false, nested: .init())

    @Test func everyFormTheClientsSendIsTaken() throws {
        let keys = [created, expand, relationship, metadata]
        #expect(try violations([QueryArgument("created[gt]", "1"), QueryArgument("created[lte]", "9")], keys) == [])
        #expect(try violations([QueryArgument("created", "5")], keys) == [])
        #expect(try violations([QueryArgument("expand", "customer"), QueryArgument("expand", "invoice.subscription")], keys) == [])
        #expect(try violations([QueryArgument("expand[]", "customer"), QueryArgument("expand[]", "invoice")], keys) == [])
        #expect(try violations([QueryArgument("expand[0]", "customer"), QueryArgument("expand[1]", "invoice")], keys) == [])
        #expect(try violations([QueryArgument("relationship[owner]", "true")], keys) == [])
        #expect(try violations([QueryArgument("metadata[order_id]", "6735"), QueryArgument("metadata[a][b]", "x")], keys) == [])
    }

    @Test func valuesPartsAndBareFormsAreChecked() throws {
        let keys = [created, expand, relationship, metadata]
        #expect(
            try violations([QueryArgument("created[gt]", "soon"), QueryArgument("created[after]", "1"), QueryArgument("created[lt", "2")], keys) == [
                #"query.created[gt]: expected int, found "soon""#,
                #"query.created[after]: unexpected part "after" (the contract names: gt, gte, lt, lte)"#,
                #"query.created[lt: has no closing "]" (expected created[part]=…)"#,
            ])
        #expect(
            try violations([QueryArgument("relationship", "true"), QueryArgument("relationship", "false")], keys) == [
                "query.relationship: takes nested parts: send relationship[director]=…"
            ])
        #expect(
            try violations([QueryArgument("expand[customer]", "x"), QueryArgument("relationship[owner]", "yes")], keys) == [
                "query.expand[customer]: a list's parts are its positions: expand[]=… or expand[0]=…",
                #"query.relationship[owner]: expected bool, found "yes""#,
            ])
        #expect(
            try violations([QueryArgument("created", "1"), QueryArgument("created", "2"), QueryArgument("created[gt]", nil)], keys) == [
                "query.created[gt]: has no value (expected int)",
                "query.created: sent 2 times, expected once",
            ])
        // A name that only starts like a nested key is another key.
        #expect(
            try violations([QueryArgument("createdAt", "1"), QueryArgument("created[]", "1")], keys) == [
                #"query.created[]: unexpected part "" (the contract names: gt, gte, lt, lte)"#,
                "query.createdAt: unexpected query key (the contract names: created, expand, relationship, metadata)",
            ])
    }

    @Test func aRequiredKeyIsKeptByAnyOfItsForms() throws {
        var required = relationship
        required.required = true
        #expect(try violations([], [required]) == ["query.relationship: required query key is missing"])
        #expect(try violations([QueryArgument("relationship[director]", "1")], [required]) == [])
    }

    @Test func theFileFormRoundTripsAndLintNamesBadValues() throws {
        var contract = ContractFile(name: "charges", method: .GET, path: "/v1/charges")
        contract.query = [created, expand, relationship, metadata]
        contract.responses = [.init(name: "default", status: 200, body: [:])]
        let query = contract.fileJSON.objectValue?["request"]?.objectValue?["query"]
        #expect(query?.objectValue?["created"] == .object(JSONObject([("type", "int"), ("required", false), ("nested", ["gt", "gte", "lt", "lte"]), ("plain", true)])))
        #expect(query?.objectValue?["expand"] == .object(JSONObject([("required", false), ("array", "repeated"), ("nested", true)])))
        #expect(try ContractFile.decode(contract.fileJSON) == contract)

        func problems(_ spec: String) -> [String] { decodingProblems(request: #""method": "GET", "path": "/x", "query": {"k": \#(spec)}"#) }
        #expect(problems(#"{"nested": ["gt"], "plain": true}"#) == [])
        #expect(problems(#"{"plain": true}"#) == [#"applies to a key with "nested" parts"#])
        #expect(problems(#"{"nested": "yes"}"#) == [#"expected true or a non-empty array of part names, found "yes""#])
        #expect(problems(#"{"nested": ["a[b]"]}"#) == [#""a[b]" is not a part name (no brackets, not empty)"#])
        #expect(problems(#"{"array": "comma", "nested": true}"#) == [#"a list with nested parts takes its bare form repeated (a=1&a=2): write "array": "repeated", not "comma""#])
        #expect(problems(#"{"array": "repeated", "nested": ["a"]}"#) == [#"a list's parts are its positions (k[0]=…): write "nested": true"#])
    }
}

/// `request.body.contentTypes`: which media types a body may come as and how each is read.
struct BodyMediaTypeTests {
    private func violations(_ request: IncomingRequest, json: [JSONKeyExpectation]?, types: [String]) throws -> [String] {
        let expectation = RequestExpectation(method: .POST, path: try PathTemplate("/x"), json: json, body: BodyRules(contentTypes: types))
        return RequestValidator.violations(of: request, against: expectation).map(\.description)
    }

    @Test func aFormIsReadByTheKeysAndAnUnlistedTypeIsNamed() throws {
        let keys = [
            JSONKeyExpectation(key: "name", type: .string),
            JSONKeyExpectation(
                key: "status", required: false,
                schema: JSONValueSchema(type: .string, enumValues: ["available", "sold"])), JSONKeyExpectation(key: "tags", type: .array, required: false),
        ]
        let types = ["application/json", "application/x-www-form-urlencoded"]
        let form = IncomingRequest(contentType: "application/x-www-form-urlencoded", body: .form([QueryArgument("name", "Rex"), QueryArgument("status", "sold"), QueryArgument("tags[0]", "a")]))
        #expect(try violations(form, json: keys, types: types) == [])
        let bad = IncomingRequest(contentType: "application/x-www-form-urlencoded", body: .form([QueryArgument("status", "lost"), QueryArgument("x", "1"), QueryArgument("x", "2")]))
        #expect(
            try violations(bad, json: keys, types: types) == [
                "body.name: required key is missing",
                #"body.status: "lost" is not one of "available", "sold""#,
                "body.x: unexpected key (the contract names: name, status, tags)",
            ])
        let xml = IncomingRequest(contentType: "application/xml", body: .other(bytes: 20))
        #expect(try violations(xml, json: keys, types: types) == ["body: Content-Type application/xml is not one the contract takes (application/json, application/x-www-form-urlencoded)"])
        #expect(try violations(IncomingRequest(), json: nil, types: ["application/x-tar"]) == ["body: expected a body with Content-Type one of application/x-tar, found none"])
        #expect(try violations(IncomingRequest(contentType: "application/x-tar", body: .other(bytes: 9)), json: nil, types: ["application/x-tar"]) == [])
    }

    @Test func lintNamesBadLists() throws {
        func problems(_ request: String) -> [String] { decodingProblems(request: #""method": "POST", "path": "/x", \#(request)"#) }
        #expect(problems(#""body": {"contentTypes": ["application/x-tar"]}"#) == [])
        #expect(problems(#""json": {}, "body": {"contentTypes": ["application/merge-patch+json", "text/plain"]}"#) == [])
        #expect(
            problems(#""body": {"contentTypes": ["Application/JSON; charset=utf-8"]}"#) == [
                #""Application/JSON; charset=utf-8" is not a media type as a Content-Type names it: lowercase type/subtype, no parameters or wildcards"#
            ])
        #expect(problems(#""body": {"contentTypes": ["*/*"]}"#) == [#""*/*" is not a media type as a Content-Type names it: lowercase type/subtype, no parameters or wildcards"#])
        #expect(problems(#""multipart": [{"name": "f"}], "body": {"contentTypes": ["multipart/form-data"]}"#) == [#"multipart/form-data comes with "multipart"; list the other types"#])
        #expect(
            problems(#""json": {}, "body": {"contentTypes": ["text/plain"]}"#) == [#"none of these is read by "json": add application/json (or a +json type, or application/x-www-form-urlencoded)"#])
        #expect(problems(#""json": {}, "body": {"contentTypes": ["application/json"]}"#) == [#"application/json alone is what "json" reads without a list; remove "contentTypes""#])
        #expect(problems(#""body": {"contentTypes": []}"#) == [#"list at least one media type (no list: application/json for "json")"#])
    }
}

/// What lint says of a contract named x whose `request` object holds `request` (its members, as JSON text).
private func decodingProblems(request: String) -> [String] {
    let text = #"{"name": "x", "request": {\#(request)}, "responses": {"default": {"status": 200}}}"#
    guard let json = try? JSONParser.parse(Array(text.utf8)) else { return ["unparsable test input"] }
    do throws(ContractSetError) {
        _ = try ContractFile.decode(json)
        return []
    } catch {
        return error.problems.map(\.message)
    }
}
