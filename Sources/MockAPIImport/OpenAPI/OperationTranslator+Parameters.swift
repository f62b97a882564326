import MockAPICore

extension OperationTranslator {
    /// Query parameters: type from the schema, an array style for array schemas, nested parts for
    /// deepObject ones, required as declared.
    mutating func queryExpectations(_ parameters: [DocumentNode]) throws(Unexpressible) -> [ContractDraft.Query] {
        var result: [ContractDraft.Query] = []
        for parameter in parameters {
            let location = parameter["in"]?.string ?? ""
            let rawName = parameter["name"]?.string ?? ""
            if location == "querystring" { throw Unexpressible("whole-querystring parameter", "a whole-querystring parameter cannot be described key by key") }
            guard location == "query" else { continue }
            if parameter["style"]?.string == "deepObject", let schema = schema(of: parameter),
                let query = deepObjectQuery(parameter, name: rawName, schema: schema)
            {
                result.append(query)
                continue
            }
            let bracketed = rawName.hasSuffix("[]")
            let name = bracketed ? String(rawName.dropLast(2)) : rawName
            var query = ContractDraft.Query(name: name, required: parameter["required"]?.bool == true)
            if let schema = schema(of: parameter) {
                if let items = reader.arrayItems(schema) {
                    query.type = reader.queryType(items) ?? .string
                    query.enumValues = reader.queryEnum(items)
                    query.arrayStyle = arrayStyle(parameter, bracketed: bracketed)
                    if query.arrayStyle == nil {
                        // Space- or pipe-separated in one value: checked as one text value.
                        query.type = .string
                        query.enumValues = nil
                    }
                } else if let type = reader.queryType(schema) {
                    query.type = type
                    query.array = bracketed
                    query.enumValues = reader.queryEnum(schema)
                } else {
                    throw Unexpressible("object query", "query parameter \"\(rawName)\" is an object, which contracts cannot describe")
                }
            }
            result.append(query)
        }
        return result
    }

    /// How an array query is sent: `name[]=a&name[]=b` for a bracketed name, `name=a&name=b` for
    /// OpenAPI's default (form, exploded), `name=a,b` for `explode: false`; nil (with a warning) for
    /// space- and pipe-delimited lists, which a contract cannot split.
    private mutating func arrayStyle(_ parameter: DocumentNode, bracketed: Bool) -> ContractDraft.Query.ArrayStyle? {
        if bracketed { return .brackets }
        let style = parameter["style"]?.string ?? "form"
        let explode = parameter["explode"]?.bool ?? (style == "form")
        if explode { return .repeated }
        if style == "form" { return .comma }
        warn("array query form", at: parameter, "query parameter \"\(parameter["name"]?.string ?? "")\" is a \(style) list, which a contract cannot split; checked as one text value")
        return nil
    }

    /// The media types a `Content-Type` header parameter's enum (or default) names: OpenAPI 3 says
    /// to ignore such a parameter, but Swagger 2.0 documents use it to say what the body is sent as.
    func declaredContentTypes(_ parameters: [DocumentNode]) -> [String] {
        guard let parameter = parameters.first(where: { $0["in"]?.string == "header" && $0["name"]?.string?.lowercased() == "content-type" }),
            let schema = schema(of: parameter), let view = reader.resolve(schema)
        else { return [] }
        let values = (view.enumValues ?? view.defaultValue.map { [$0] } ?? []).compactMap(\.stringValue)
        return values.map { MediaType.essence(of: $0) }
    }

    /// Header parameters (required as declared); cookies are not checked.
    mutating func headerExpectations(_ parameters: [DocumentNode]) -> [ContractDraft.Header] {
        var result: [ContractDraft.Header] = []
        for parameter in parameters {
            let name = parameter["name"]?.string ?? ""
            switch parameter["in"]?.string {
            case "header":
                // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
                guard !["accept", "content-type", "authorization"].contains(name.lowercased()) else { continue }
                let values = schema(of: parameter).flatMap { reader.queryEnum($0) }
                result.append(ContractDraft.Header(name: name, required: parameter["required"]?.bool == true, enumValues: values))
            case "cookie":
                warn("cookie", at: parameter, "cookie parameter \"\(name)\" is not checked (contracts do not read cookies)")
            default:
                continue
            }
        }
        return result
    }

    /// What `security` asks of every request.
    enum SecurityNeed {
        /// One header every alternative sends (`Authorization` with any of their prefixes): a required header.
        case header(ContractDraft.Header)
        /// Alternatives sent in different places (an API key header, HTTP Basic, a query key): any one of them.
        case credentials(CredentialExpectation)
    }

    /// What `security` puts on every request; nil for none, for optional security (`{}`), or when
    /// an alternative is one a contract cannot check (a cookie), so no valid request is refused.
    /// A requirement of several schemes together is read as its first: leniency over a refusal.
    func securityNeed(except declared: [ContractDraft.Header]) -> SecurityNeed? {
        let requirements = (operation["security"] ?? document.root["security"])?.elements ?? []
        var alternatives: [CredentialExpectation.Credential] = []
        for requirement in requirements {
            guard let first = requirement.members.first, let credential = securityCredential(named: first.key) else { return nil }
            if !alternatives.contains(credential) { alternatives.append(credential) }
        }
        guard let name = alternatives.first?.name else { return nil }
        if alternatives.allSatisfy({ $0.place == .header && $0.name.lowercased() == name.lowercased() }) {
            guard !declared.contains(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
            // An API key among them takes any value, so no prefix is required.
            let prefixes = alternatives.contains { $0.prefix == nil } ? [] : alternatives.compactMap(\.prefix)
            return .header(ContractDraft.Header(name: name, prefixes: prefixes))
        }
        return .credentials(CredentialExpectation(anyOf: alternatives))
    }

    /// The credential one security scheme sends; nil for a cookie or an unknown scheme.
    private func securityCredential(named reference: String) -> CredentialExpectation.Credential? {
        guard let named = document.root["components"]?["securitySchemes"]?[reference], let scheme = document.resolve(named) else { return nil }
        if scheme["type"]?.string == "apiKey", scheme["in"]?.string == "query", let name = scheme["name"]?.string { return .query(name) }
        return securityHeader(named: reference).map { .header($0.name, prefix: $0.prefixes.first) }
    }

    /// The header one security scheme sends; nil for a cookie, a query key or an unknown scheme.
    private func securityHeader(named reference: String) -> ContractDraft.Header? {
        guard let named = document.root["components"]?["securitySchemes"]?[reference], let scheme = document.resolve(named) else { return nil }
        let kind = scheme["scheme"]?.string?.lowercased()
        return switch scheme["type"]?.string {
        case "apiKey" where scheme["in"]?.string == "header": scheme["name"]?.string.map { ContractDraft.Header(name: $0) }
        case "http" where kind == "bearer": ContractDraft.Header(name: "Authorization", prefix: "Bearer ")
        case "http" where kind == "basic": ContractDraft.Header(name: "Authorization", prefix: "Basic ")
        case "oauth2", "openIdConnect": ContractDraft.Header(name: "Authorization", prefix: "Bearer ")
        default: nil
        }
    }
}
