/// Step two: a `ContractFile` as the `Contract` the server serves: its path parsed, the set's
/// defaults merged, its fixtures read, its placeholders checked against what a request can fill.
extension ContractDecoder {
    mutating func resolve(_ source: ContractFile) -> Contract? {
        let request = resolveRequest(source)
        var responses: [ResponseDefinition] = []
        for (offset, response) in source.responses.enumerated() {
            responses.append(resolveResponse(response, request: request, at: "$.responses.\(source.responses[offset].name)"))
        }
        let sequence = source.sequence?.compactMap { name in responses.firstIndex { $0.name == name } }
        guard let request, !responses.isEmpty else { return nil }
        return Contract(
            name: source.name, description: source.description, file: file, request: request, responses: responses,
            sequence: sequence, source: source, refusal: Self.refusal(of: source, responses: responses))
    }

    private static func refusal(of source: ContractFile, responses: [ResponseDefinition]) -> Contract.Refusal? {
        func index(_ name: String?) -> Int? { name.flatMap { name in responses.firstIndex { $0.name == name } } }
        var byHeader = source.headers.compactMap { header in index(header.refusal).map { ("header.\(header.name)", $0) } }
        if let response = index(source.credentials?.refusal) { byHeader.append((CredentialExpectation.location, response)) }
        guard source.refusal != nil || !byHeader.isEmpty else { return nil }
        return Contract.Refusal(response: index(source.refusal), byHeader: byHeader)
    }

    private mutating func resolveRequest(_ source: ContractFile) -> RequestExpectation? {
        let template: PathTemplate
        do { template = try PathTemplate(source.path) } catch {
            problem(at: "$.request.path", error.description)
            return nil
        }
        let query = defaults.merged(query: source.query)
        let headers = defaults.merged(headers: source.headers)
        if let match = source.match {
            // The values that pick this contract must be ones it declares, or they would be violations.
            for (name, _) in match.query where !query.contains(where: { $0.name == name }) {
                problem(at: "$.request.match.query.\(name)", "the contract's \"query\" does not name \"\(name)\"")
            }
            for (key, _) in match.json where !source.body.names(key, besides: source.json) {
                problem(
                    at: "$.request.match.json.\(key)",
                    source.body.branches == nil
                        ? "the contract's \"json\" does not name \"\(key)\"" : "neither the contract's \"json\" nor an option of its body names \"\(key)\"")
            }
        }
        if let example = source.example {
            for name in example.path.keys.sorted() where !template.parameterNames.contains(name) {
                problem(at: "$.request.example.path.\(name)", "the path \(template) has no parameter \"\(name)\"")
            }
            for name in template.parameterNames where example.path[name] == nil {
                problem(at: "$.request.example.path", "no value for the path parameter \"\(name)\"")
            }
        }
        return RequestExpectation(
            method: source.method, path: template, query: query, headers: headers, credentials: source.credentials, json: source.json,
            multipart: source.multipart, body: source.body, match: source.match, example: source.example)
    }

    private mutating func resolveResponse(_ source: ContractFile.Response, request: RequestExpectation?, at here: String) -> ResponseDefinition {
        var response = ResponseDefinition(name: source.name, status: source.status, body: [], contentType: nil)
        response.headers = source.headers
        response.when = source.when
        response.delay = source.delay
        response.fault = source.fault
        response.shape = source.shape
        if let fixture = source.fixture {
            response.fixture = fixture
            switch fixtures.load(fixture) {
            case .success(let loaded):
                response.body = loaded.bytes
                response.contentType = loaded.contentType
            case .failure(let failure):
                if let problem = failure.problem(referencedFrom: displayFile, at: "\(here).fixture") { problems.append(problem) }
            }
        } else if let body = source.body {
            response.body = Array(body.serialized.utf8)
            response.contentType = "application/json"
        }
        if source.placeholders {
            response.template = resolveTemplate(response, request: request, at: source.fixture != nil ? "\(here).fixture" : "\(here).body")
        }
        // A Content-Type among the headers is the answer's type, in place of the fixture's: one
        // header, not two (a client reads the first; a browser goes by the last).
        if let written = response.headers.last(where: { $0.name.lowercased() == "content-type" }) {
            response.contentType = written.value
            response.headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        return response
    }

    /// The body's placeholders, each checked against what the request can fill it with, and
    /// against the media type, which says how a request's value is escaped (if it can be).
    private mutating func resolveTemplate(_ response: ResponseDefinition, request: RequestExpectation?, at path: String) -> ResponseTemplate? {
        let template: ResponseTemplate?
        // The Content-Type a browser goes by: a `headers` one is sent last, so it wins.
        let mediaType = response.headers.last { $0.name.lowercased() == "content-type" }?.value ?? response.contentType
        var escaping = ResponseTemplate.Escaping.forMediaType(mediaType)
        // A JSON body sent as plain text stays valid JSON: escaping for JSON is as safe there.
        if escaping == ResponseTemplate.Escaping.none, ResponseTemplate.Escaping.forMediaType(response.contentType) == .json { escaping = .json }
        do throws(ResponseTemplate.UnknownPlaceholder) {
            template = try ResponseTemplate.parse(response.body, escaping: escaping ?? .none)
        } catch {
            problem(at: path, "unknown placeholder {{\(error.name)}} (known: \(Self.knownPlaceholders))")
            return nil
        }
        if let template, template.echoesRequest, escaping == nil {
            problem(
                at: path,
                "a request's value ({{path.NAME}}, {{query.NAME}}, {{body.KEY}}) cannot be escaped safely in a \(mediaType ?? "response without Content-Type") body; "
                    + "use it in JSON, HTML, XML or plain text, or keep only {{baseURL}}, {{uuid}}, {{now}}, {{now.unix}} and {{counter}}")
            return nil
        }
        guard var template else { return nil }
        if escaping == .markup, template.echoesRequest {
            switch template.checkedForMarkup() {
            case .success(let checked):
                template = checked
            case .failure(let refusals):
                let body = response.fixture.map { "fixture \($0)" } ?? "body"
                for refusal in refusals.all { problem(at: path, "in the \(body) (\(mediaType ?? "markup")), \(refusal.message)") }
                return nil
            }
        }
        guard let request else { return template }
        for piece in template.pieces {
            switch piece {
            case .path(let name) where !request.path.parameterNames.contains(name):
                let names = request.path.parameterNames
                problem(at: path, "{{path.\(name)}} names no parameter of \(request.path) (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
            case .query(let name) where !request.query.contains(where: { $0.name == name }):
                problem(at: path, "{{query.\(name)}} names no query key of this contract (it has: \(request.query.isEmpty ? "none" : request.query.map(\.name).joined(separator: ", ")))")
            case .body(let keys):
                if let reason = Self.bodyPathProblem(keys, in: request) { problem(at: path, "\(piece.written) \(reason)") }
            default:
                continue
            }
        }
        return template
    }

    /// What an unknown placeholder's load error lists.
    static let knownPlaceholders = "{{baseURL}}, {{path.NAME}}, {{query.NAME}}, {{body}}, {{body.KEY.KEY}}, {{uuid}}, {{now}}, {{now.unix}}, {{counter}}"

    /// Why a `{{body.…}}` key path can never be in a body the contract takes, or nil: only where
    /// `request.json` closes an object without that key, or says a value is a scalar or an array
    /// (indexed by number). An open object, an unchecked value or a contract that names no body
    /// keys let any path through.
    static func bodyPathProblem(_ keys: [String], in request: RequestExpectation) -> String? {
        guard let first = keys.first, let top = request.json else { return nil }
        guard let declared = top.first(where: { $0.key == first }) else {
            // Other keys allowed, or a body that need not be an object (`{{body.0}}` of a list).
            if request.body.otherKeys || request.body.otherTypes { return nil }
            let names = top.map(\.key)
            return "names no key of the request's \"json\" (it has: \(names.isEmpty ? "none" : names.joined(separator: ", "))), and the contract refuses a body with other keys"
        }
        var schema = declared.schema
        var at = first
        for key in keys.dropFirst() {
            let isIndex = key.utf8.allSatisfy(ASCII.isDigit)
            let isArray = schema.type == .array || (schema.type == .any && schema.items != nil && schema.properties == nil)
            let isObject = schema.type == .object || (schema.type == .any && schema.properties != nil && schema.items == nil)
            if isArray {
                guard isIndex else { return "goes into \(at), which the request's \"json\" says is an array: name an element by its number ({{body.\(at).0}})" }
                guard let items = schema.items else { return nil }
                schema = items
            } else if isObject {
                guard let properties = schema.properties else { return nil }
                guard let property = properties.first(where: { $0.key == key }) else {
                    if schema.otherKeys { return nil }
                    let names = properties.map(\.key)
                    return "names no key of \(at) in the request's \"json\" (it has: \(names.isEmpty ? "none" : names.joined(separator: ", "))), which allows no other keys"
                }
                schema = property.schema
            } else if schema.type != .any {
                return "goes into \(at), which the request's \"json\" says is \(schema.type == .int ? "an" : "a") \(schema.type.rawValue) and holds no \"\(key)\""
            } else {
                return nil
            }
            at += ".\(key)"
        }
        return nil
    }
}
