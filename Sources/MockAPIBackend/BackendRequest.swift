import Foundation
import MockAPICore
import MockAPIVerify

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A contract's conforming request (`ConformingRequest`, the one builder the server tests and
/// `verify-bench` use too) and the `URLRequest` that sends it to the backend, made together so
/// a retry with other path values (`BackendVerifier.reach`) names what it sent.
struct BackendRequest {
    let conforming: ConformingRequest
    let request: URLRequest

    var guesses: [String] { conforming.guesses }
    var missingSecrets: [String] { conforming.missingSecrets }
    /// The value sent for each path parameter, by name.
    var pathValues: [String: String] { conforming.pathValues }

    init(
        contract: Contract, baseURL: URL, headers: [HTTPField], timeout: TimeInterval, secrets: [String: String] = [:],
        pathOverrides: [String: String] = [:]
    ) {
        conforming = ConformingRequest(contract: contract, headers: headers, secrets: secrets, pathOverrides: pathOverrides)
        request = conforming.urlRequest(baseURL: baseURL, timeout: timeout)
    }
}
