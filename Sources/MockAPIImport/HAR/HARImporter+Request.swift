import Foundation
import MockAPICore

extension HARImporter {
    /// The query items an entry sent, names and values percent-decoded.
    static func queryItems(_ entry: HARArchive.Entry) -> [(name: String, value: String)] {
        let recorded = entry.request.queryString?.map { ($0.name, $0.value) }
            ?? (URLComponents(string: entry.request.url)?.percentEncodedQueryItems ?? []).map { ($0.name, $0.value ?? "") }
        return recorded.map { name, value in
            (name.removingPercentEncoding ?? name, value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value)
        }
    }

    /// Every key seen: required when every entry sent it, typed when every value agrees, `key[]` as an array.
    static func queryExpectations(_ entries: [HARArchive.Entry]) -> [ContractDraft.Query] {
        var order: [String] = []
        var seen: [String: (entries: Int, values: [String], array: Bool)] = [:]
        for entry in entries {
            var keysHere: Set<String> = []
            for (name, value) in queryItems(entry) {
                let array = name.hasSuffix("[]")
                let key = array ? String(name.dropLast(2)) : name
                if seen[key] == nil {
                    order.append(key)
                    seen[key] = (0, [], false)
                }
                seen[key]!.values.append(value)
                seen[key]!.array = seen[key]!.array || array
                if keysHere.insert(key).inserted { seen[key]!.entries += 1 }
            }
        }
        return order.map { key in
            let facts = seen[key]!
            return ContractDraft.Query(name: key, type: valueType(facts.values), required: facts.entries == entries.count, array: facts.array)
        }
    }

    private static func valueType(_ values: [String]) -> QueryValueType {
        if values.allSatisfy({ Int($0) != nil }) { return .int }
        if values.allSatisfy({ Double($0) != nil }) { return .number }
        if values.allSatisfy({ $0 == "true" || $0 == "false" }) { return .bool }
        return .string
    }

    /// JSON object bodies → keys (typed when every value agrees); multipart bodies with `params` → parts.
    static func bodyExpectations(_ entries: [HARArchive.Entry], warnings: inout [String]) -> ([ContractDraft.JSONKey]?, [ContractDraft.Part]?) {
        let bodies = entries.compactMap(\.request.postData)
        guard !bodies.isEmpty else { return (nil, nil) }
        let types = Set(bodies.map { MediaType.essence(of: $0.mimeType ?? "") })
        if bodies.count < entries.count {
            warnings.append("some requests have no body; the body is not checked")
            return (nil, nil)
        }
        if types.count == 1, let type = types.first, type == "application/json" || type.hasSuffix("+json") {
            var objects: [JSONObject] = []
            for body in bodies {
                guard let text = body.text, case .object(let object)? = try? JSONParser.parse(text) else {
                    warnings.append("a JSON body is not an object; the body is not checked")
                    return (nil, nil)
                }
                objects.append(object)
            }
            return (jsonKeys(objects), nil)
        }
        if types == ["multipart/form-data"] {
            guard bodies.allSatisfy({ $0.params != nil }) else {
                warnings.append("a multipart body was recorded without its parts (postData.params); the parts are not checked")
                return (nil, nil)
            }
            return (nil, parts(bodies.map { $0.params ?? [] }))
        }
        warnings.append("request bodies of type \(types.sorted().joined(separator: ", ")) are not checked (contracts check JSON objects and multipart)")
        return (nil, nil)
    }

    private static func jsonKeys(_ objects: [JSONObject]) -> [ContractDraft.JSONKey] {
        var order: [String] = []
        var values: [String: [JSONValue]] = [:]
        for object in objects {
            for (key, value) in object.members {
                if values[key] == nil { order.append(key) }
                values[key, default: []].append(value)
            }
        }
        return order.map { key in
            let seen = values[key]!
            return ContractDraft.JSONKey(key: key, type: jsonType(seen), required: seen.count == objects.count)
        }
    }

    private static func jsonType(_ values: [JSONValue]) -> JSONValueType {
        let names = Set(values.map(\.typeName))
        switch names {
        case ["int"]: return .int
        case ["int", "number"], ["number"]: return .number
        case ["string"]: return .string
        case ["bool"]: return .bool
        case ["object"]: return .object
        case ["array"]: return .array
        default: return .any   // null, or values of several types
        }
    }

    private static func parts(_ bodies: [[HARArchive.Param]]) -> [ContractDraft.Part] {
        var order: [String] = []
        var seen: [String: [HARArchive.Param]] = [:]
        for params in bodies {
            for param in params {
                if seen[param.name] == nil { order.append(param.name) }
                seen[param.name, default: []].append(param)
            }
        }
        return order.map { name in
            let params = seen[name]!
            let isFile = params.allSatisfy { !($0.fileName ?? "").isEmpty }
            var part = ContractDraft.Part(name: name, required: bodies.allSatisfy { $0.contains { $0.name == name } }, filename: isFile)
            let types = params.map { $0.contentType.map(MediaType.essence) }
            if isFile, types.allSatisfy({ $0 != nil }) {
                var distinct: [String] = []
                for case let type? in types where !distinct.contains(type) { distinct.append(type) }
                part.contentTypes = distinct
            }
            return part
        }
    }
}
