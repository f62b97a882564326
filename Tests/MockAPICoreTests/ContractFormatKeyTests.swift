import Foundation
import MockAPITestSupport
import Testing

@testable import MockAPICore

/// The key tables (`FormatKey`) are the format: the decoder's allowed keys and the encoder's names
/// come from them. These tests hold the two other places a key is written against them: the editor
/// schema's `properties`, and the generator the property tests draw contracts from.
struct ContractFormatKeyTests {
    /// Each object of the format: where the schema describes it, and its table.
    static let objects: [(pointer: String, keys: [String])] = [
        ("/$defs/contract", ContractKey.names),
        ("/$defs/defaults", DefaultsKey.names),
        ("/$defs/request", RequestKey.names),
        ("/$defs/request/properties/body", BodyRulesKey.names),
        ("/$defs/request/properties/example", ExampleKey.names),
        ("/$defs/request/properties/multipart/items", PartKey.names),
        ("/$defs/query/additionalProperties", QueryKey.names),
        ("/$defs/headers/additionalProperties", HeaderKey.names),
        ("/$defs/credentials", CredentialsKey.names),
        ("/$defs/match", MatchKey.names),
        ("/$defs/resource", ResourceKey.names),
        ("/$defs/valueSchema", JSONSchemaKey.itemNames),
        ("/$defs/jsonKeys/additionalProperties/allOf/1", [JSONSchemaKey.required.rawValue]),
        ("/$defs/response", ResponseKey.names),
        ("/$defs/response/properties/delay/oneOf/1", UniformDelayKey.names),
        ("/$defs/response/properties/delay/oneOf/2", LogNormalDelayKey.names),
        // A credential is one of two shapes, `header` (with its prefix) or `query`: the table is their union.
        ("/$defs/credentials/properties/anyOf/items/oneOf/0", [CredentialKey.header, .prefix].map(\.rawValue)),
        ("/$defs/credentials/properties/anyOf/items/oneOf/1", [CredentialKey.query.rawValue]),
    ]

    static func schema() throws -> JSONValue {
        let file = ContractFileRoundTripTests.root.appendingPathComponent("schema/contract.schema.json")
        return try JSONParser.parse(Array(try Data(contentsOf: file)))
    }

    static func resolve(_ pointer: String, in root: JSONValue) -> JSONValue? {
        pointer.split(separator: "/").reduce(Optional(root)) { node, token in
            switch node {
            case .object(let object)?: object[String(token)]
            case .array(let elements)?: Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: nil
            }
        }
    }

    @Test func theSchemaNamesEachObjectsKeysAsItsTableDoes() throws {
        let schema = try Self.schema()
        for (pointer, keys) in Self.objects {
            guard case .object(let properties)? = Self.resolve(pointer + "/properties", in: schema) else {
                Issue.record("no properties at \(pointer)")
                continue
            }
            #expect(Set(properties.keys) == Set(keys), "\(pointer)")
        }
        #expect(Set(JSONSchemaKey.itemNames + [JSONSchemaKey.required.rawValue]) == Set(JSONSchemaKey.names))
        #expect(Set(CredentialKey.names) == Set(CredentialExpectation.Credential.Place.allCases.map(\.rawValue) + [CredentialKey.prefix.rawValue]))
    }

    /// An object the schema gains must get a table (and a line above), or this fails.
    @Test func everyObjectTheSchemaDescribesHasATable() throws {
        var found: [String] = []
        func walk(_ node: JSONValue, _ pointer: String) {
            switch node {
            case .object(let object):
                // A `properties` map holds property names, not schema keywords: a property named "properties" is not an object.
                if case .object? = object["properties"], !pointer.hasSuffix("/properties") { found.append(pointer) }
                for (key, value) in object.members { walk(value, pointer + "/" + key) }
            case .array(let elements):
                for (offset, element) in elements.enumerated() { walk(element, pointer + "/\(offset)") }
            default: break
            }
        }
        walk(try Self.schema(), "")
        #expect(found.sorted() == Self.objects.map(\.pointer).sorted())
    }

    /// The generated contracts use every key of every table, so the property tests built on them
    /// (round trip, editor schema, export) see a new key as soon as the generator writes it.
    @Test func theGeneratorUsesEveryKey() throws {
        var seen: [String: Set<String>] = [:]
        func note(_ table: String, _ value: JSONValue?) {
            guard case .object(let object)? = value else { return }
            seen[table, default: []].formUnion(object.keys)
        }
        func noteSchema(_ value: JSONValue?) {
            guard case .object(let object)? = value else { return }
            note("JSONSchemaKey", value)
            if case .object(let properties)? = object["properties"] { for member in properties.members { noteSchema(member.value) } }
            noteSchema(object["items"])
        }
        func noteMatch(_ value: JSONValue?) { note("MatchKey", value) }
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<500 {
            let root = ContractGenerator.contract(&random).fileJSON
            note("ContractKey", root)
            note("ResourceKey", root.objectValue?["resource"])
            let request = root.objectValue?["request"]
            note("RequestKey", request)
            let fields = request?.objectValue
            note("BodyRulesKey", fields?["body"])
            note("ExampleKey", fields?["example"])
            noteMatch(fields?["match"])
            for member in fields?["query"]?.objectValue?.members ?? [] { note("QueryKey", member.value) }
            for member in fields?["headers"]?.objectValue?.members ?? [] { note("HeaderKey", member.value) }
            for member in fields?["json"]?.objectValue?.members ?? [] { noteSchema(member.value) }
            for part in fields?["multipart"]?.arrayValue ?? [] { note("PartKey", part) }
            note("CredentialsKey", fields?["credentials"])
            for credential in fields?["credentials"]?.objectValue?["anyOf"]?.arrayValue ?? [] { note("CredentialKey", credential) }
            for member in root.objectValue?["responses"]?.objectValue?.members ?? [] {
                note("ResponseKey", member.value)
                noteSchema(member.value.objectValue?["schema"])
                noteMatch(member.value.objectValue?["when"])
                let delay = member.value.objectValue?["delay"]
                note(delay?.objectValue?["min"] != nil ? "UniformDelayKey" : "LogNormalDelayKey", delay)
            }
        }
        let tables: [(String, [String])] = [
            ("ContractKey", ContractKey.names), ("RequestKey", RequestKey.names), ("BodyRulesKey", BodyRulesKey.names),
            ("ExampleKey", ExampleKey.names), ("MatchKey", MatchKey.names), ("QueryKey", QueryKey.names), ("HeaderKey", HeaderKey.names),
            ("JSONSchemaKey", JSONSchemaKey.names), ("PartKey", PartKey.names), ("CredentialsKey", CredentialsKey.names),
            ("CredentialKey", CredentialKey.names), ("ResponseKey", ResponseKey.names), ("UniformDelayKey", UniformDelayKey.names),
            ("LogNormalDelayKey", LogNormalDelayKey.names), ("ResourceKey", ResourceKey.names),
            // DefaultsKey: `_defaults.json` is not generated; its query and headers are QueryKey and HeaderKey,
            // and its `$schema` and `description` are read and not kept, so no encoder writes them.
        ]
        for (table, keys) in tables {
            #expect(Set(keys).subtracting(seen[table] ?? []).isEmpty, "\(table) keys the generator never writes: \(Set(keys).subtracting(seen[table] ?? []).sorted())")
        }
    }
}
