public import ClientKit
@_exported import ExampleAPI
@_exported import MockAPIVerifyClientKit

/// Wires the bundled example client into the contract runner: each route kind's sample
/// request, and the models its responses decode into.
extension RouteKind: VerifiableRouteKind {
    public var sampleEndpoint: Endpoint { sample.endpoint }

    public var responseDecoders: [String: ResponseDecoder] {
        var decoders = ["default": ResponseDecoder.clientKit(responseType)]
        for (name, type) in namedResponses { decoders[name] = .clientKit(type) }
        return decoders
    }
}

/// The bundled client's checks, as `mockapi verify` runs them.
package enum BundledClientChecks {
    /// The bundled client configured as its app would be: an app name and a signed-in token.
    package static let configuration = ClientConfiguration(environment: .local(port: 0), appName: "mockapi-verify", token: "mockapi-verify")

    /// One check per route kind, with `configuration`.
    package static var all: [RouteCheck] { RouteCheck.all(RouteKind.self, configuration: configuration) }

    /// The bundled client's deep-link matcher: every web link on its host must open a screen.
    package static let deepLinks = DeepLinkCheck(hosts: [Navigation.host]) { url in Navigation.match(url) != nil }
}
