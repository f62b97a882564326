import MockAPICore

extension OpenAPIExporter {
    /// One OpenAPI response per status; every named response with that status is an example
    /// (named as in the contract), its fixture parsed back into JSON. A fixture with placeholders
    /// is shown as the mock answers the contract's example request at `serverURL`
    /// (`{{baseURL}}/v1/projects?page=2` → `http://127.0.0.1:8080/v1/projects?page=2`): a reader
    /// of plain OpenAPI gets a real answer, and the template itself travels in `x-mockapi`.
    static func responses(_ contract: Contract, serverURL: String) -> JSONObject {
        let request = RenderingRequest(contract)
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
                    let body = definition.template.map { request.render($0, serverURL: serverURL) } ?? definition.body
                    let mediaType = MediaType.essence(of: definition.contentType ?? "application/octet-stream")
                    var media = content[mediaType]?.objectValue ?? JSONObject()
                    if mediaType == "application/json", let value = try? JSONParser.parse(body) {
                        var examples = media["examples"]?.objectValue ?? JSONObject()
                        examples[definition.name] = ["value": value]
                        media["examples"] = .object(examples)
                        // The response's `schema`: the first of the status's responses that has one.
                        if media["schema"] == nil, let shape = definition.shape { media["schema"] = valueSchema(shape) }
                    } else if mediaType.hasPrefix("text/") || mediaType.hasSuffix("xml") {
                        var examples = media["examples"]?.objectValue ?? JSONObject()
                        examples[definition.name] = ["value": .string(String(decoding: body, as: UTF8.self))]
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

    /// The contract's example request (`ConformingRequest`), as a template reads it.
    struct RenderingRequest {
        let pathParameters: [String: String]
        let query: [QueryArgument]
        let body: EchoBody

        init(_ contract: Contract) {
            let conforming = ConformingRequest(contract: contract)
            pathParameters = conforming.pathValues
            query = conforming.query.map { QueryArgument($0.name, $0.value) }
            let type = conforming.headers.first { $0.name.lowercased() == "content-type" }.map { MediaType.essence(of: $0.value) }
            body =
                switch (conforming.body, type) {
                case (let bytes?, MediaType.form?): .form(Array(bytes))
                case (let bytes?, let type?) where type == "application/json" || type.hasSuffix("+json"): .json(Array(bytes))
                default: .none
                }
        }

        func render(_ template: ResponseTemplate, serverURL: String) -> [UInt8] {
            template.render(baseURL: serverURL, pathParameters: pathParameters, query: query, body: body)
        }
    }
}
