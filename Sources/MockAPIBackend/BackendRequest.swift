import Foundation
import MockAPICore

/// A contract's conforming request (`ConformingRequest`, the one builder the server tests and
/// `verify-bench` use too) and the URL it is sent to, made together so a retry with other path
/// values (`BackendVerifier.reach`) names what it sent. What is sent is exactly this: its method,
/// its headers in order, its body (`CurlExchange` adds only `Accept: */*` and a User-Agent where
/// the headers name none, and the `Accept-Encoding` it decodes).
struct BackendRequest {
    let conforming: ConformingRequest
    let url: URL

    var method: String { conforming.method.rawValue }
    var headers: [HTTPField] { conforming.headers }
    var body: Data? { conforming.body }
    var guesses: [String] { conforming.guesses }
    var missingSecrets: [String] { conforming.missingSecrets }
    /// The value sent for each path parameter, by name.
    var pathValues: [String: String] { conforming.pathValues }

    init(contract: Contract, baseURL: URL, headers: [HTTPField], secrets: [String: String] = [:], pathOverrides: [String: String] = [:]) {
        conforming = ConformingRequest(contract: contract, headers: headers, secrets: secrets, pathOverrides: pathOverrides)
        url = conforming.url(baseURL: baseURL)
    }
}
