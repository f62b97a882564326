import ClientKit
import ExampleAPI
import Foundation
import MockAPITestSupport

/// The token tests sign in with; the bundled contracts only check its `token ` prefix.
let sampleToken = "sample-token"

extension Service {
    /// A service talking to the mock server on `port`, signed in unless `token` is `nil`.
    static func local(port: Int, token: String? = sampleToken) -> Service {
        Service(client: APIClient(configuration: ClientConfiguration(environment: .local(port: port), appName: "ExampleAPITests", token: token)))
    }
}

extension EndpointConvertible {
    /// This route's request asking the mock server for its response called `name` (`Prefer: example=name`).
    func preferring(_ name: String) -> Endpoint {
        var endpoint = self.endpoint
        endpoint.headers["Prefer"] = "example=\(name)"
        return endpoint
    }
}

extension Date {
    /// The date `seconds` after 1970, as the fixtures write timestamps.
    static func epoch(_ seconds: TimeInterval) -> Date {
        Date(timeIntervalSince1970: seconds)
    }
}

extension APIError {
    /// The status and envelope of a `.server` error; `nil` for other failures.
    var serverFailure: (status: Int, envelope: ErrorEnvelope?)? {
        if case let .server(status, envelope, _) = self { return (status, envelope) }
        return nil
    }
}

/// The SHA-256 of `data` as lowercase hex, from the system's `sha256sum`: a digest computed
/// outside the server, so the journal's checksum is checked against an independent one.
func sha256Hex(_ data: Data) throws -> String {
    String(try ExternalTool.run(["sha256sum"], input: data).stdout.prefix(64))
}
