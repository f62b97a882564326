import Testing

@testable import MockAPICore

struct JSONParserTests {
    @Test func parsesNestedDocumentKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b": [1, 2.5, "x", null, true], "a": {"z": -3}}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == [1, .double(2.5), "x", nil, true])
        #expect(object["a"] == ["z": -3])
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""a\n\"b\" \u00e9 \ud83d\ude00""#) == .string("a\n\"b\" é 😀"))
    }

    @Test func reportsLineAndColumnOfTheError() {
        let text = "{\n  \"name\": \"x\",\n  \"request\": {\n    \"method\" \"GET\"\n  }\n}"
        #expect(throws: JSONParser.Failure(line: 4, column: 14, message: "unexpected '\"', expected ':' after key \"method\"")) {
            try JSONParser.parse(text)
        }
    }

    @Test func refusesTrailingCommasDuplicateKeysAndTrailingGarbage() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("[1,]") }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a": 1, "a": 2}"#) }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("{} x") }
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse("01") }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
    }

    @Test func serializationRoundTrips() throws {
        let value: JSONValue = ["text": "quote \" and \n", "list": [1, true, nil], "empty": [:]]
        #expect(try JSONParser.parse(value.serialized) == value)
        #expect(try JSONParser.parse(value.prettySerialized) == value)
    }
}
