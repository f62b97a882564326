import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a mock server's `/__mockapi/` endpoints: resets sequences, reads the journal.
struct AdminClient: Sendable {
    let baseURL: URL

    func resetScenarios() async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("__mockapi/scenarios"))
        request.httpMethod = "DELETE"
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "it is not a mockapi server (DELETE /__mockapi/scenarios failed)"])
        }
    }

    /// The journal entry of the request that carried `Mockapi-Verify-Request: id`.
    func journalEntry(id: String) async throws -> [String: Any]? {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("__mockapi/requests"))
        let entries = (try JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
        return entries.last { entry in
            let headers = entry["headers"] as? [String: String] ?? [:]
            return headers.contains { $0.key.lowercased() == Exchange.idHeader.lowercased() && $0.value == id }
        }
    }
}
