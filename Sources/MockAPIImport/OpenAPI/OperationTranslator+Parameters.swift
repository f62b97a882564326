import MockAPICore
import OpenAPIKit

extension OperationTranslator {
    /// Query parameters: type from the schema, `array: true` for array schemas (sent as `key[]=…`,
    /// the only array form a contract knows), required as declared.
    mutating func queryExpectations(_ parameters: [OpenAPI.Parameter]) throws(Unexpressible) -> [ContractDraft.Query] {
        var result: [ContractDraft.Query] = []
        for parameter in parameters {
            if parameter.location == .querystring { throw Unexpressible("a whole-querystring parameter cannot be described key by key") }
            guard parameter.location == .query else { continue }
            if case .a(let context) = parameter.schemaOrContent, context.style == .deepObject {
                throw Unexpressible("query parameter \"\(parameter.name)\" is a deepObject (\(parameter.name)[key]=…), which contracts cannot describe")
            }
            let bracketed = parameter.name.hasSuffix("[]")
            let name = bracketed ? String(parameter.name.dropLast(2)) : parameter.name
            var query = ContractDraft.Query(name: name, required: parameter.required)
            if let schema = schema(of: parameter) {
                if let items = reader.arrayItems(schema) {
                    query.array = true
                    query.type = reader.queryType(items) ?? .string
                    if !bracketed {
                        warnings.append("query parameter \"\(name)\" is an array: the contract expects it as \(name)[]=a&\(name)[]=b")
                    }
                } else if let type = reader.queryType(schema) {
                    query.type = type
                } else {
                    throw Unexpressible("query parameter \"\(parameter.name)\" is an object, which contracts cannot describe")
                }
            }
            result.append(query)
        }
        return result
    }

    /// Header parameters (required as declared); cookies are not checked.
    mutating func headerExpectations(_ parameters: [OpenAPI.Parameter]) -> [ContractDraft.Header] {
        var result: [ContractDraft.Header] = []
        for parameter in parameters {
            switch parameter.location {
            case .header:
                // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
                guard !["accept", "content-type", "authorization"].contains(parameter.name.lowercased()) else { continue }
                result.append(ContractDraft.Header(name: parameter.name, required: parameter.required))
            case .cookie:
                warnings.append("cookie parameter \"\(parameter.name)\" is not checked (contracts do not read cookies)")
            default:
                continue
            }
        }
        return result
    }

    /// The header a single security scheme puts on every request (`Authorization: Bearer …`, an API key).
    /// Alternatives (`security: [a, b]`) and optional security (`{}`) add nothing: any one may be sent.
    func securityHeaders(except declared: [ContractDraft.Header]) -> [ContractDraft.Header] {
        let requirements = operation.security ?? document.security
        guard requirements.count == 1, let requirement = requirements.first, requirement.count == 1,
              let reference = requirement.keys.first, let scheme = components[reference] else { return [] }
        let header: ContractDraft.Header? = switch scheme.type {
        case .apiKey(let name, .header): ContractDraft.Header(name: name)
        case .http(let kind, _) where kind.lowercased() == "bearer": ContractDraft.Header(name: "Authorization", prefix: "Bearer ")
        case .http(let kind, _) where kind.lowercased() == "basic": ContractDraft.Header(name: "Authorization", prefix: "Basic ")
        case .oauth2, .openIdConnect: ContractDraft.Header(name: "Authorization", prefix: "Bearer ")
        default: nil
        }
        guard let header, !declared.contains(where: { $0.name.lowercased() == header.name.lowercased() }) else { return [] }
        return [header]
    }
}
