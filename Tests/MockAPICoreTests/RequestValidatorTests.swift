import Testing

@testable import MockAPICore

struct RequestValidatorTests {
    private func violations(_ request: IncomingRequest, _ contract: Contract) -> [String] {
        RequestValidator.violations(of: request, against: contract.request).map(\.description)
    }

    @Test func queryRequiredTypedArrayAndUnexpectedKeys() throws {
        let contract = try Contract.make(query: [
            QueryExpectation(name: "page", type: .int),
            QueryExpectation(name: "ids", type: .int, required: true, array: true),
            QueryExpectation(name: "sort", required: false),
        ])
        #expect(violations(IncomingRequest(query: [QueryArgument("page", "2"), QueryArgument("ids[]", "1"), QueryArgument("ids[]", "2")]), contract) == [])
        #expect(
            violations(IncomingRequest(query: [QueryArgument("page", "two"), QueryArgument("ids", "1"), QueryArgument("extra", nil)]), contract) == [
                #"query.page: expected int, found "two""#,
                "query.ids: is an array: send it as ids[]=…&ids[]=…",
                "query.extra: unexpected query key (the contract names: page, ids, sort)",
            ])
        #expect(
            violations(IncomingRequest(query: [QueryArgument("ids[]", "x")]), contract) == [
                "query.page: required query key is missing",
                #"query.ids: expected int, found "x""#,
            ])
    }

    /// An integer as JSON Schema reads it: any length of digits in a query (Docker's
    /// `w=-19067981269028397020872704`), and a JSON number without a fraction however large.
    @Test func integersAreNotBoundToInt64() throws {
        let contract = try Contract.make(method: .POST, query: [QueryExpectation(name: "w", type: .int)], json: [JSONKeyExpectation(key: "tick", type: .int)])
        func request(_ w: String, _ tick: Double) -> IncomingRequest {
            IncomingRequest(query: [QueryArgument("w", w)], contentType: "application/json", body: .json(["tick": .double(tick)]))
        }
        #expect(violations(request("-19067981269028397020872704", 1e20), contract) == [])
        #expect(violations(request("+7", 3.0), contract) == [])
        #expect(
            violations(request("1.5", 1.5), contract) == [
                #"query.w: expected int, found "1.5""#, "body.tick: expected int, found number",
            ])
        #expect(
            violations(request("-", .infinity), contract) == [
                #"query.w: expected int, found "-""#, "body.tick: expected int, found number",
            ])
    }

    /// `nullable`: null besides the type, at any depth (Docker's `EndpointConfig: null`); other types still refused.
    @Test func aNullableKeyTakesNullBesidesItsType() throws {
        let endpoint = JSONValueSchema(type: .object, properties: [JSONKeyExpectation(key: "ip", type: .string)], nullable: true)
        let contract = try Contract.make(method: .POST, json: [JSONKeyExpectation(key: "EndpointConfig", required: false, schema: endpoint)])
        func request(_ value: JSONValue) -> IncomingRequest { IncomingRequest(contentType: "application/json", body: .json(["EndpointConfig": value])) }
        #expect(violations(request(nil), contract) == [])
        #expect(violations(request(["ip": "10.0.0.1"]), contract) == [])
        #expect(violations(request("x"), contract) == ["body.EndpointConfig: expected object, found string"])
        #expect(violations(request(["ip": nil]), contract) == ["body.EndpointConfig.ip: expected string, found null"])
        // In a form, null is the text `null` or nothing (Discord's `flags` as schemathesis sends it).
        let flags = [JSONKeyExpectation(key: "flags", required: false, schema: JSONValueSchema(type: .int, nullable: true))]
        #expect(RequestValidator.formViolations([QueryArgument("flags", "null"), QueryArgument("flags", ""), QueryArgument("flags", "4")], flags, otherKeys: false).isEmpty)
        #expect(RequestValidator.formViolations([QueryArgument("flags", "x")], flags, otherKeys: false).map(\.description) == [#"body.flags: expected int, found "x""#])
    }

    @Test func headersRequiredAndPrefixCaseInsensitive() throws {
        let contract = try Contract.make(headers: [HeaderExpectation(name: "Authorization", prefix: "token ")])
        #expect(violations(IncomingRequest(headers: [("authorization", "token abc")]), contract) == [])
        #expect(
            violations(IncomingRequest(headers: [("Authorization", "Bearer abc")]), contract) == [
                #"header.Authorization: expected a value starting with "token ""#
            ])
        #expect(violations(IncomingRequest(), contract) == ["header.Authorization: required header is missing"])
    }

    @Test func jsonBodyKeysTypesAndContentType() throws {
        let contract = try Contract.make(
            method: .PUT,
            json: [
                JSONKeyExpectation(key: "amount", type: .number),
                JSONKeyExpectation(key: "reward_id", type: .int),
                JSONKeyExpectation(key: "note", type: .string, required: false),
            ])
        let good = IncomingRequest(
            contentType: "application/json; charset=utf-8",
            body: .json(["amount": .double(10.5), "reward_id": 3]))
        #expect(violations(good, contract) == [])
        let bad = IncomingRequest(
            contentType: "application/json",
            body: .json(["amount": "10", "note": nil, "rewardId": 3]))
        #expect(
            violations(bad, contract) == [
                "body.amount: expected number, found string",
                "body.reward_id: required key is missing",
                "body.note: expected string, found null",
                "body.rewardId: unexpected key (the contract names: amount, reward_id, note)",
            ])
        let form = IncomingRequest(contentType: "application/x-www-form-urlencoded", body: .other(bytes: 3))
        #expect(violations(form, contract) == ["body: expected a JSON body (Content-Type: application/json), found Content-Type application/x-www-form-urlencoded"])
    }

    @Test func multipartPartsNamesFilenamesTypesAndSizes() throws {
        let contract = try Contract.make(
            method: .POST,
            multipart: [
                PartExpectation(name: "image", contentTypes: ["image/jpeg", "image/png"], maxBytes: 100),
                PartExpectation(name: "caption", required: false, filename: false),
            ])
        func request(_ parts: [ReceivedPart]) -> IncomingRequest {
            IncomingRequest(contentType: "multipart/form-data; boundary=b", body: .multipart(parts))
        }
        let image = ReceivedPart(name: "image", filename: "a.jpg", contentType: "image/jpeg", bytes: 10, sha256: "")
        #expect(violations(request([image]), contract) == [])
        #expect(
            violations(
                request([
                    ReceivedPart(name: "image", filename: nil, contentType: "image/gif", bytes: 101, sha256: ""),
                    ReceivedPart(name: "photo", filename: "b.jpg", contentType: "image/jpeg", bytes: 1, sha256: ""),
                ]), contract) == [
                    "part.image: expected a filename in Content-Disposition",
                    "part.image: content type image/gif is not allowed (allowed: image/jpeg, image/png)",
                    "part.image: 101 bytes is over the limit of 100",
                    "part.photo: unexpected part (the contract names: image, caption)",
                ])
        #expect(violations(request([]), contract) == ["part.image: required part is missing"])
        #expect(
            violations(IncomingRequest(contentType: "application/json", body: .json([:])), contract) == [
                "body: expected multipart/form-data, found Content-Type application/json"
            ])
    }
}
