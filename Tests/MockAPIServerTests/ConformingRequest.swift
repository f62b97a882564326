import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport

/// Builds, from a contract alone, a request that satisfies it: sample path parameters,
/// every required query key, header, JSON key and part.
enum ConformingRequest {
    static func send(for contract: Contract, port: Int) throws -> RawHTTP.Response {
        let path = contract.request.path.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .parameter(_, .int): "7"
            case .parameter(_, .string): "sample-slug"
            case .parameter(_, .path): "art/illustration"
            }
        }.joined(separator: "/")
        let query = contract.request.query.filter(\.required).map { spec in
            let value = spec.enumValues?.first ?? sampleQueryValue(spec.type)
            return spec.array ? "\(spec.name)[]=\(value)&\(spec.name)[]=\(value)" : "\(spec.name)=\(value)"
        }.joined(separator: "&")
        var headers: [String: String] = [:]
        for header in contract.request.headers where header.required { headers[header.name] = header.enumValues?.first ?? (header.prefixes.first ?? "") + "abc" }
        var body = Data()
        if let keys = contract.request.json {
            let object = JSONValue.object(JSONObject(keys.filter(\.required).map { ($0.key, $0.schema.enumValues?.first ?? sampleJSONValue($0.type)) }))
            body = Data(object.serialized.utf8)
            headers["Content-Type"] = "application/json"
        } else if let parts = contract.request.multipart {
            var multipart = MultipartBody()
            for part in parts where part.required {
                multipart.parts.append((part.name, part.filename ? "file.bin" : nil, part.contentTypes?.first, jpegBytes(1000)))
            }
            body = multipart.data
            headers["Content-Type"] = multipart.contentType
        }
        return try RawHTTP.request(
            port, contract.request.method.rawValue, "/" + path + (query.isEmpty ? "" : "?" + query),
            headers: headers, body: body)
    }

    private static func sampleQueryValue(_ type: QueryValueType) -> String {
        switch type {
        case .string: "text"
        case .int: "3"
        case .number: "2.5"
        case .bool: "true"
        }
    }

    private static func sampleJSONValue(_ type: JSONValueType) -> JSONValue {
        switch type {
        case .string, .any: "text"
        case .int: 3
        case .number: .double(2.5)
        case .bool: true
        case .object: [:]
        case .array: []
        case .null: nil
        }
    }
}
