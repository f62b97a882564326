import MockAPICore

extension OpenAPIExporter {
    /// One OpenAPI response per status; every named response with that status is an example
    /// (named as in the contract), its fixture parsed back into JSON.
    static func responses(_ contract: Contract) -> JSONObject {
        var statuses: [Int] = []
        for response in contract.responses where !statuses.contains(response.status) { statuses.append(response.status) }
        return JSONObject(
            statuses.map { status in
                let group = contract.responses.filter { $0.status == status }
                var response = JSONObject([("description", .string(group.map(\.name).joined(separator: ", ")))])
                var headers = JSONObject()
                for definition in group {
                    for header in definition.headers where headers[header.name] == nil {
                        headers[header.name] = ["schema": ["type": "string"], "example": .string(header.value)]
                    }
                }
                if !headers.isEmpty { response["headers"] = .object(headers) }
                var content = JSONObject()
                for definition in group where !definition.body.isEmpty {
                    let mediaType = MediaType.essence(of: definition.contentType ?? "application/octet-stream")
                    var media = content[mediaType]?.objectValue ?? JSONObject()
                    if mediaType == "application/json", let value = try? JSONParser.parse(definition.body) {
                        var examples = media["examples"]?.objectValue ?? JSONObject()
                        examples[definition.name] = ["value": value]
                        media["examples"] = .object(examples)
                        // The response's `schema`: the first of the status's responses that has one.
                        if media["schema"] == nil, let shape = definition.shape { media["schema"] = valueSchema(shape) }
                    } else if mediaType.hasPrefix("text/") || mediaType.hasSuffix("xml") {
                        var examples = media["examples"]?.objectValue ?? JSONObject()
                        examples[definition.name] = ["value": .string(String(decoding: definition.body, as: UTF8.self))]
                        media["examples"] = .object(examples)
                        media["schema"] = ["type": "string"]
                    } else {
                        media["schema"] = ["type": "string", "format": "binary"]
                    }
                    content[mediaType] = .object(media)
                }
                if !content.isEmpty { response["content"] = .object(content) }
                return (String(status), .object(response))
            })
    }
}
