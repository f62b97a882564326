import ClientKit
@_exported import ExampleAPI
@_exported import MockAPIVerify

/// Wires the bundled example client into the contract runner: each route kind's sample
/// request, and the models its responses decode into.
extension RouteKind: VerifiableRouteKind {
    public var sampleEndpoint: Endpoint { sample.endpoint }

    public var responseDecoders: [String: ResponseDecoder] {
        var decoders = ["default": ResponseDecoder.model(responseType)]
        for (name, type) in namedResponses { decoders[name] = .model(type) }
        return decoders
    }
}
