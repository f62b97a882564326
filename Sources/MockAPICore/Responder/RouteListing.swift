/// One contract as `GET /__mockapi/routes` lists it: what a tool outside the process (the
/// coverage gate, the bench) needs to know of a served contract.
package struct RouteListing: Sendable, Equatable, Codable {
    package var contract: String
    package var method: String
    /// The path template as written: `/v1/projects/{id:int}`.
    package var path: String
    /// The contract's file, `contracts/projects.json`.
    package var file: String
    /// Its named responses, in file order.
    package var responses: [String]

    package init(contract: String, method: String, path: String, file: String, responses: [String]) {
        self.contract = contract
        self.method = method
        self.path = path
        self.file = file
        self.responses = responses
    }

    /// Every contract of a set, in its order.
    package static func all(in set: ContractSet) -> [RouteListing] {
        set.contracts.map { contract in
            RouteListing(
                contract: contract.name, method: contract.request.method.rawValue, path: contract.request.path.text,
                file: "\(set.contractsDirectory)/\(contract.file)", responses: contract.responses.map(\.name))
        }
    }

    package var json: JSONValue {
        [
            "contract": .string(contract), "method": .string(method), "path": .string(path), "file": .string(file),
            "responses": .array(responses.map(JSONValue.string)),
        ]
    }

    package init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        let reader = JSONMembers(object)
        guard let contract = reader.string("contract") ?? nil, let method = reader.string("method") ?? nil,
            let path = reader.string("path") ?? nil, let file = reader.string("file") ?? nil,
            let responses = reader.array("responses", \.stringValue) ?? nil
        else { return nil }
        self.init(contract: contract, method: method, path: path, file: file, responses: responses)
    }

    /// The admin endpoint's whole answer; nil when it is not a route list.
    package static func list(from body: some Collection<UInt8>) -> [RouteListing]? {
        guard let elements = (try? JSONParser.parse(body))?.arrayValue else { return nil }
        var routes: [RouteListing] = []
        for element in elements {
            guard let route = RouteListing(json: element) else { return nil }
            routes.append(route)
        }
        return routes
    }
}
