import ClientKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockAPICore
import MockAPIServer

/// One request the runner sent, what came back, and what the server journaled for it.
struct Exchange {
    static let idHeader = "Mockapi-Verify-Request"

    var sent: RouteResult.SentRequest
    var endpoint: Endpoint
    var status: Int
    var matchedContract: String?
    var body: Data
    var journal: [String: Any]?

    var bodyJSON: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

    /// True when mockapi itself refused the request (its problem documents), as opposed to
    /// serving a contract response that happens to be a 4xx.
    var refusedByServer: Bool {
        if let journal { return journal["response"] is NSNull || journal["response"] == nil }
        return (bodyJSON?["type"] as? String)?.hasPrefix("urn:mockapi:") == true
    }
}

extension ContractRunner {
    /// Sends the route's request through the client, asking for the named response.
    func send(_ check: RouteCheck, contract: Contract, response name: String, number: Int,
              client: APIClient, admin: AdminClient) async throws -> Exchange {
        let id = "\(number)-\(name)-\(UUID().uuidString.prefix(8))"
        var endpoint = check.endpoint
        endpoint.headers[Exchange.idHeader] = id
        endpoint.headers["Prefer"] = "example=\(name)"
        let url = try client.urlRequest(for: endpoint).url?.absoluteString ?? endpoint.path
        var parts: [String] = []
        if case .upload(let upload) = endpoint.body {
            parts.append("part \(upload.partName): \(upload.fileName), \(upload.contentType), \(upload.data.count) bytes, sha256 \(SHA256.hex(of: upload.data))")
        }
        let (data, response) = try await client.send(endpoint)
        if name != "default" { parts.append("asking for response \"\(name)\" (Prefer: example=\(name))") }
        return Exchange(sent: .init(method: endpoint.method.rawValue, url: url, parts: parts), endpoint: endpoint,
                        status: response.statusCode, matchedContract: response.value(forHTTPHeaderField: "Mockapi-Contract"),
                        body: data, journal: try await admin.journalEntry(id: id))
    }
}
