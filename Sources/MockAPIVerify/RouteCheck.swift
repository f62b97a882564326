import ClientKit
import Foundation

/// One client route as the runner sees it: the contract it claims, a sample request built by
/// the client's own route, and how the client decodes each response it handles.
///
/// ```swift
/// RouteCheck(name: "backing", contract: "backing",
///            endpoint: Route.backing(projectId: 1, backerId: 2).endpoint,
///            responses: ["default": .model(Backing.self), "not_found": .model(ErrorEnvelope.self)])
/// ```
public struct RouteCheck: Sendable {
    /// The route's name in reports (usually the route kind).
    public var name: String
    /// The contract this route is meant to hit (its `name`).
    public var contract: String
    /// The request, as the client's own router describes it.
    public var endpoint: Endpoint
    /// Response name → how the client decodes it. `default` is checked on the plain request,
    /// the others by asking for them with `Prefer: example=NAME`.
    public var responses: [String: ResponseDecoder]

    public init(name: String, contract: String, endpoint: Endpoint, responses: [String: ResponseDecoder]) {
        self.name = name
        self.contract = contract
        self.endpoint = endpoint
        self.responses = responses
    }
}

/// Decodes a response body the way the client does, and finds the fixture keys its model never reads.
public struct ResponseDecoder: Sendable {
    public var modelName: String
    let decode: @Sendable (_ data: Data, _ client: APIClient, _ endpoint: String) throws -> (any Sendable)

    /// Decodes with `client.decode(M.self, …)`, the client's own decoder.
    public static func model<M: Decodable & Sendable>(_ type: M.Type) -> ResponseDecoder {
        decoding(type)
    }

    /// The same, for a model type only known at run time.
    public static func model(_ type: any (Decodable & Sendable).Type) -> ResponseDecoder {
        decoding(type)
    }

    private static func decoding<M: Decodable & Sendable>(_: M.Type) -> ResponseDecoder {
        ResponseDecoder(modelName: String(describing: M.self)) { data, client, endpoint in
            try client.decode(M.self, from: data, endpoint: endpoint)
        }
    }
}

/// A client route kind the runner can enumerate: a team's `CaseIterable` route kind conforms,
/// and the compiler keeps every route in the check list.
public protocol VerifiableRouteKind: CaseIterable, Sendable {
    var contractName: String { get }
    var sampleEndpoint: Endpoint { get }
    /// `default` and every other named response this kind handles.
    var responseDecoders: [String: ResponseDecoder] { get }
}

extension RouteCheck {
    /// One check per case of a route kind.
    public static func all<Kind: VerifiableRouteKind>(_: Kind.Type) -> [RouteCheck] {
        Kind.allCases.map { kind in
            RouteCheck(name: kind.contractName, contract: kind.contractName, endpoint: kind.sampleEndpoint, responses: kind.responseDecoders)
        }
    }
}
