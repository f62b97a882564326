import Testing

@testable import MockAPICore

/// The rare answers a response's `schema` allows: one change each, in a fixed order, bounded.
struct ResponseVariantsTests {
    static let shape: JSONValueSchema = {
        let creator = JSONValueSchema(
            type: .object,
            properties: [
                JSONKeyExpectation(key: "id", schema: JSONValueSchema(type: .int, format: "int64")),
                JSONKeyExpectation(key: "avatar", required: false, schema: JSONValueSchema(type: .string, nullable: true)),
            ], otherKeys: true)
        return JSONValueSchema(
            type: .object,
            properties: [
                JSONKeyExpectation(key: "state", schema: JSONValueSchema(type: .string, enumValues: ["live", "successful", "failed"])),
                JSONKeyExpectation(key: "launched_at", schema: JSONValueSchema(type: .string, format: "date-time")),
                JSONKeyExpectation(key: "creator", schema: creator),
                JSONKeyExpectation(key: "tags", schema: JSONValueSchema(type: .array, items: JSONValueSchema(type: .string))),
                JSONKeyExpectation(key: "photos", schema: JSONValueSchema(type: .array, items: JSONValueSchema(type: .string), minItems: 1)),
                JSONKeyExpectation(key: "backers", schema: JSONValueSchema(type: .int, format: "int32")),
            ])
    }()

    static let fixture: JSONValue = [
        "state": "live", "launched_at": "2024-05-01T12:00:00Z", "creator": ["id": 7, "avatar": "a.png"], "tags": ["art"],
        "photos": ["p.png"], "backers": 3,
    ]

    @Test func eachChangeTheShapeAllowsOnceInBodyOrder() {
        let (variants, leftOut) = ResponseVariants.of(Self.fixture, shape: Self.shape)
        #expect(leftOut == 0)
        #expect(
            variants.map { "\($0.label) \($0.path) \($0.value?.serialized ?? "absent")" } == [
                "enum value $.state \"successful\"",
                "enum value $.state \"failed\"",
                "date-time with fractional seconds $.launched_at \"2024-05-01T12:00:00.123Z\"",
                "date-time with offset $.launched_at \"2024-05-01T12:00:00+02:00\"",
                "19-digit integer $.creator.id 1234567890123456789",
                "optional key absent $.creator.avatar absent",
                "nullable key null $.creator.avatar null",
                "unknown key $.creator.mockapi_unknown_key \"mockapi\"",
                "empty array $.tags []",
            ])
        // No empty `photos` (minItems 1), no large `backers` (int32).
        let absent = variants.first { $0.label == "optional key absent" }!
        #expect(absent.body.objectValue?["creator"] == ["id": 7])
        let null = variants.first { $0.label == "nullable key null" }!
        #expect(null.body.objectValue?["creator"] == ["id": 7, "avatar": nil])
        // The rest of the body is the fixture's.
        #expect(null.body.objectValue?["state"] == "live")
    }

    @Test func everyVariantIsABodyTheShapeAllows() {
        for variant in ResponseVariants.of(Self.fixture, shape: Self.shape).variants {
            #expect(ShapeMismatch.violations(of: variant.body, against: Self.shape).isEmpty, "\(variant.label) \(variant.path)")
        }
    }

    @Test func theSameInputGivesTheSameVariants() {
        #expect(ResponseVariants.of(Self.fixture, shape: Self.shape).variants == ResponseVariants.of(Self.fixture, shape: Self.shape).variants)
    }

    @Test func aListIsEnteredAtEachElementOfAShapeNotSeenBefore() {
        let element = JSONValueSchema(
            type: .object,
            properties: [
                JSONKeyExpectation(key: "kind", schema: JSONValueSchema(type: .string, enumValues: ["a", "b"])),
                JSONKeyExpectation(key: "note", required: false, schema: JSONValueSchema(type: .string, nullable: true)),
            ])
        // 0 and 1 alike; 2 has a note; 3 is of the other kind; 4 is 2 again.
        let body: JSONValue = [["kind": "a"], ["kind": "a"], ["kind": "a", "note": "x"], ["kind": "b"], ["kind": "a", "note": "y"]]
        let (variants, _) = ResponseVariants.of(body, shape: JSONValueSchema(type: .array, items: element))
        #expect(
            variants.map { "\($0.label) \($0.path) \($0.value?.serialized ?? "absent")" } == [
                "empty array $ []",
                #"enum value $[0].kind "b""#,
                #"enum value $[2].kind "b""#,
                "optional key absent $[2].note absent",
                "nullable key null $[2].note null",
                #"enum value $[3].kind "a""#,
            ])
        let null = variants.first { $0.label == "nullable key null" }!
        #expect(null.body.arrayValue?[2] == ["kind": "a", "note": nil])
        #expect(null.body.arrayValue?[4] == ["kind": "a", "note": "y"])
    }

    @Test func eachOtherOneOfOptionIsSentAsItsSampleAndTheFixturesOptionIsEntered() {
        let card = JSONValueSchema(
            type: .object,
            properties: [
                JSONKeyExpectation(key: "kind", schema: JSONValueSchema(type: .string, enumValues: ["card"])),
                JSONKeyExpectation(key: "last4", schema: JSONValueSchema(type: .string)),
                JSONKeyExpectation(key: "brand", required: false, schema: JSONValueSchema(type: .string)),
            ])
        let paypal = JSONValueSchema(
            type: .object,
            properties: [
                JSONKeyExpectation(key: "kind", schema: JSONValueSchema(type: .string, enumValues: ["paypal"])),
                JSONKeyExpectation(key: "id", schema: JSONValueSchema(type: .string, format: "uuid")),
                JSONKeyExpectation(key: "email", required: false, schema: JSONValueSchema(type: .string)),
            ])
        let shape = JSONValueSchema(type: .object, properties: [JSONKeyExpectation(key: "payment", schema: JSONValueSchema(oneOf: [card, paypal, JSONValueSchema()]))])
        let body: JSONValue = ["payment": ["kind": "card", "last4": "4242", "brand": "visa"]]
        let (variants, _) = ResponseVariants.of(body, shape: shape)
        // The unchecked third option has no sample a client must take.
        #expect(
            variants.map { "\($0.label) \($0.path) \($0.value?.serialized ?? "absent")" } == [
                #"oneOf option 2 $.payment {"kind":"paypal","id":"3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f"}"#,
                "optional key absent $.payment.brand absent",
            ])
        for variant in variants {
            #expect(ShapeMismatch.violations(of: variant.body, against: shape).isEmpty, "\(variant.label) \(variant.path)")
        }
    }

    @Test func aLongListOfOneShapeIsEnteredOnceAndTheLimitIsSaid() {
        let element = JSONValueSchema(type: .object, properties: (0..<10).map { JSONKeyExpectation(key: "k\($0)", required: false, schema: JSONValueSchema(type: .string, nullable: true)) })
        let one: JSONValue = .object(JSONObject((0..<10).map { ("k\($0)", "v") }))
        let body: JSONValue = .array(Array(repeating: one, count: 100))
        let all = ResponseVariants.of(body, shape: JSONValueSchema(type: .array, items: element))
        #expect(all.variants.count == 21) // empty array, then 2 per key of element 0
        #expect(all.leftOut == 0)
        let capped = ResponseVariants.of(body, shape: JSONValueSchema(type: .array, items: element), limit: 5)
        #expect(capped.variants.count == 5)
        #expect(capped.leftOut == 16)
    }

    @Test func aNullValueAndAnUncheckedObjectGiveNone() {
        #expect(ResponseVariants.of(nil, shape: JSONValueSchema(type: .string, nullable: true)).variants.isEmpty)
        #expect(ResponseVariants.of(["a": 1], shape: JSONValueSchema(type: .object)).variants.isEmpty)
    }

    @Test func dateTimesAreCheckedAsRFC3339() {
        for good in ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123456Z", "2024-05-01t12:00:00+02:00", "2024-12-31T23:59:60-11:30"] {
            #expect(DateFormat.problem(good, format: "date-time") == nil, "\(good)")
        }
        for bad in ["2024-05-01", "2024-05-01 12:00:00Z", "2024-13-01T12:00:00Z", "2024-05-01T12:00:00", "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00+0200"] {
            #expect(DateFormat.problem(bad, format: "date-time") != nil, "\(bad)")
        }
        #expect(DateFormat.problem("2024-05-01", format: "date") == nil)
        #expect(DateFormat.problem("2024-05-01T00:00:00Z", format: "date") != nil)
        #expect(DateFormat.problem("anything", format: "uuid") == nil)
    }
}
