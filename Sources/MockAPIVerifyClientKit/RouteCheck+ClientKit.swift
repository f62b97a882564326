public import ClientKit
import Foundation
@_exported import MockAPIVerify

extension RouteCheck {
    /// A check for a client built on ClientKit: the request is what ``APIClient`` builds for
    /// `endpoint` with `configuration` (its headers, its token), pointed at the mock server.
    public init(
        name: String, contract: String, endpoint: Endpoint, configuration: ClientConfiguration,
        responses: [String: ResponseDecoder]
    ) {
        self.init(
            name: name, contract: contract,
            request: { baseURL in
                var configuration = configuration
                configuration.environment = APIEnvironment(name: "mockapi", baseURL: baseURL)
                return try APIClient(configuration: configuration).urlRequest(for: endpoint)
            }, responses: responses)
    }

    /// One check per case of a ClientKit route kind.
    public static func all<Kind: VerifiableRouteKind>(_: Kind.Type, configuration: ClientConfiguration) -> [RouteCheck] {
        Kind.allCases.map { kind in
            RouteCheck(
                name: kind.contractName, contract: kind.contractName, endpoint: kind.sampleEndpoint,
                configuration: configuration, responses: kind.responseDecoders)
        }
    }
}

/// A ClientKit route kind the runner can enumerate: a team's `CaseIterable` route kind conforms,
/// and the compiler keeps every route in the check list.
public protocol VerifiableRouteKind: CaseIterable, Sendable {
    var contractName: String { get }
    var sampleEndpoint: Endpoint { get }
    /// `default` and every other named response this kind handles.
    var responseDecoders: [String: ResponseDecoder] { get }
}
