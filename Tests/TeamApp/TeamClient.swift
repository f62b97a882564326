public import Foundation
public import MockAPIVerify

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The team's session pieces: its decoder and its auth interceptor, each able to carry one
/// planted bug (``TeamClientBugs``) for the mutation tests; `checks` are the README's
/// ``AppContractChecks`` with this decoder and router.
public struct TeamClient: Sendable {
    public var token = "team-secret"
    public var bugs: TeamClientBugs = []

    public init(bugs: TeamClientBugs = []) {
        self.bugs = bugs
    }

    /// The decoder the app uses for every response.
    public static func appDecoder() -> JSONDecoder {
        TeamClient().decoder
    }

    public var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        if !bugs.contains(.noSnakeCase) { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.dateDecodingStrategy = bugs.contains(.iso8601Dates) ? .iso8601 : .secondsSince1970
        return decoder
    }

    /// The app's transport: its own URLSession behind an interceptor that signs every request,
    /// as an Alamofire `RequestInterceptor.adapt` would.
    public var transport: Transport {
        let token = bugs.contains(.noToken) ? nil : token
        let session = URLSession(configuration: .ephemeral)
        return Transport { request in
            var request = request
            if let token { request.setValue("token \(token)", forHTTPHeaderField: "Authorization") }
            return try await Transport.urlSession(session).send(request)
        }
    }

    /// Every route, with a sample request and the models the app decodes its answers into.
    public var checks: [RouteCheck] {
        let bugs = self.bugs
        return AppContractChecks.all(decoder: decoder, router: { route, baseURL in try route.asURLRequest(baseURL: baseURL, bugs: bugs) })
    }
}
