import ClientKit
import Foundation
import MockAPICore
import MockAPIServer

extension ContractRunner {
    /// The request reached the contract the route claims, and the server found nothing wrong with it.
    func matchFailure(_ exchange: Exchange, check: RouteCheck, contract: Contract) -> RouteResult.Failure? {
        let expected = "contract: \(contract.name), \(contract.request.method.rawValue) \(contract.request.path) (\(file(contract)))"
        func failure(_ problem: [String]) -> RouteResult.Failure {
            .init(check: "contract", message: (sentLines(exchange) + [expected] + problem).joined(separator: "\n"))
        }
        let body = exchange.bodyJSON
        // Why the claimed contract itself did not match, for the cases where another (or none) did.
        var whyNot: [String] = []
        let sentMethod = exchange.endpoint.method.rawValue
        if sentMethod != contract.request.method.rawValue {
            whyNot.append("          the contract expects \(contract.request.method.rawValue), the client sent \(sentMethod)")
        }
        let reason = NearestContracts.explain(path: exchange.endpoint.path, template: contract.request.path)
        if !reason.hasPrefix("the path matches") { whyNot.append("          \(reason)") }
        switch (exchange.matchedContract, exchange.status) {
        case (contract.name, 400) where exchange.refusedByServer:
            return failure(["problem:  the server could not read the body: \(body?["detail"] as? String ?? "malformed request")"])
        case (contract.name, 422) where exchange.refusedByServer:
            let violations = (body?["violations"] as? [[String: Any]] ?? []).map {
                "  \($0["location"] as? String ?? "?"): \($0["message"] as? String ?? "?")"
            }
            return failure(["problem:  the request breaks the contract (\(violations.count) violation\(violations.count == 1 ? "" : "s")):"] + violations)
        case (contract.name, _):
            return nil
        case (let other?, _):
            let otherFile = set.contracts.first { $0.name == other }.map { " (\(file($0)))" } ?? ""
            return failure(["problem:  the request matched contract \"\(other)\"\(otherFile) instead"] + whyNot)
        case (nil, 405):
            return failure(["problem:  \(body?["error"] as? String ?? "method not allowed")"] + whyNot)
        case (nil, _):
            let nearest = (body?["nearest"] as? [[String: Any]] ?? []).map {
                "  \($0["contract"] as? String ?? "?") (\($0["file"] as? String ?? "?")): \($0["reason"] as? String ?? "")"
            }
            let error = body?["error"] as? String ?? "no contract matched (status \(exchange.status))"
            return failure(["problem:  \(error)"] + whyNot + (nearest.isEmpty ? [] : ["nearest:"] + nearest))
        }
    }

    /// An upload arrived as sent: part name, filename, content type, size and SHA-256.
    func uploadFailures(_ exchange: Exchange, check: RouteCheck) -> [RouteResult.Failure] {
        guard case .upload(let upload) = exchange.endpoint.body else { return [] }
        let parts = exchange.journal?["parts"] as? [[String: Any]] ?? []
        guard let part = parts.first(where: { $0["name"] as? String == upload.partName }) else {
            let names = parts.compactMap { $0["name"] as? String }
            return [.init(check: "upload", message: (sentLines(exchange) + ["problem:  the server journaled no part \"\(upload.partName)\" (parts: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"]).joined(separator: "\n"))]
        }
        var problems: [String] = []
        let sentDigest = SHA256.hex(of: upload.data)
        if part["filename"] as? String != upload.fileName { problems.append("filename: sent \(upload.fileName), received \(part["filename"] as? String ?? "none")") }
        let receivedType = (part["contentType"] as? String).map(MediaType.essence)
        if receivedType != MediaType.essence(of: upload.contentType) { problems.append("content type: sent \(upload.contentType), received \(receivedType ?? "none")") }
        if part["bytes"] as? Int != upload.data.count { problems.append("size: sent \(upload.data.count) bytes, received \(part["bytes"] as? Int ?? 0)") }
        if part["sha256"] as? String != sentDigest { problems.append("sha256: sent \(sentDigest), received \(part["sha256"] as? String ?? "none")") }
        guard !problems.isEmpty else { return [] }
        return [.init(check: "upload", message: (sentLines(exchange) + ["problem:  part \"\(upload.partName)\" did not arrive intact:"] + problems.map { "  " + $0 }).joined(separator: "\n"))]
    }

    /// The response has the contract's status and decodes into the route's model with the client's decoder.
    func responseFailures(_ exchange: Exchange, contract: Contract, index: Int, decoder: ResponseDecoder, client: APIClient) -> [RouteResult.Failure] {
        let definition = contract.responses[index]
        if exchange.status != definition.status {
            return [.init(check: "status", message: "response \"\(definition.name)\": expected status \(definition.status), got \(exchange.status)")]
        }
        do {
            _ = try decoder.decode(exchange.body, client, exchange.endpoint.description)
            return []
        } catch let APIError.decoding(failure) {
            let place = failure.path.isEmpty ? "" : "\(failure.path): "
            return [.init(check: "decoding", message: "response \"\(definition.name)\" does not decode into \(decoder.modelName):\n  \(source(of: definition, in: contract)): \(place)\(failure.message)")]
        } catch {
            return [.init(check: "decoding", message: "response \"\(definition.name)\" does not decode into \(decoder.modelName):\n  \(source(of: definition, in: contract)): \(error)")]
        }
    }

    /// Fixture keys the model never reads: decode, re-encode with the client's encoder, compare.
    /// Null-valued keys are left out: an optional that was read as nil encodes as absent.
    func driftWarning(_ exchange: Exchange, contract: Contract, index: Int, decoder: ResponseDecoder, client: APIClient) -> String? {
        guard exchange.status == contract.responses[index].status,
              let value = try? decoder.decode(exchange.body, client, exchange.endpoint.description) else { return nil }
        guard let encodable = value as? any Encodable else {
            return "\(source(of: contract.responses[index], in: contract)): drift not checked: \(decoder.modelName) is not Encodable, so the keys it reads cannot be compared"
        }
        guard let reencoded = try? client.encoder.encode(encodable),
              let original = try? JSONParser.parse(Array(exchange.body)),
              let roundTrip = try? JSONParser.parse(Array(reencoded)) else { return nil }
        let unread = KeyPaths.of(original).subtracting(KeyPaths.of(roundTrip)).sorted()
        guard !unread.isEmpty else { return nil }
        return "\(source(of: contract.responses[index], in: contract)): keys \(decoder.modelName) never reads: \(unread.joined(separator: ", "))"
    }

    private func source(of response: ResponseDefinition, in contract: Contract) -> String {
        response.fixture.map { "\(set.fixturesDirectory)/\($0)" } ?? "\(file(contract)) responses.\(response.name).body"
    }

    private func sentLines(_ exchange: Exchange) -> [String] {
        ["sent:     \(exchange.sent.method) \(exchange.sent.url)"] + exchange.sent.parts.map { "          \($0)" }
    }
}

/// Every non-null key path in a JSON document, arrays folded: `projects[].creator.id`.
enum KeyPaths {
    static func of(_ value: JSONValue, prefix: String = "") -> Set<String> {
        switch value {
        case .object(let object):
            var paths: Set<String> = []
            for (key, child) in object.members {
                if case .null = child { continue }
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                paths.insert(path)
                paths.formUnion(of(child, prefix: path))
            }
            return paths
        case .array(let elements):
            return elements.reduce(into: Set<String>()) { $0.formUnion(of($1, prefix: prefix + "[]")) }
        default:
            return []
        }
    }
}
