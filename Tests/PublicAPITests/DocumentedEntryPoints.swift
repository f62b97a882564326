import ClientKit
import Foundation
import MockAPISessionClient
import MockAPITestSupport
import MockAPIVerify
import MockAPIVerifyClientKit
import MockAPIVerifyCommand

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Every Swift entry point the documentation names in its prose (README.md, docs/swift.md,
// docs/recipes.md), used as a team outside this package would use it: this target is built with
// `packageAccess: false`, and scripts/public-api-check builds it again from a package of its own,
// so a `package` declaration the docs promise fails the build. Each `// documented:` line quotes
// the doc's code span; DocumentedEntryPointsTests holds the list and the docs to each other.

/// A team's resource in the style of Swift Talk: a request and its own hand-written `parse`.
struct SwiftTalkResource<A>: Sendable {
    var path: String
    var parse: @Sendable (Data) throws -> A
}

/// A model decoded by hand, with no `Decodable` conformance.
struct HandParsedActivity: Sendable {
    var id: Int
    var createdAt: Date

    struct Missing: Error, CustomStringConvertible {
        var key: String
        var description: String { "activities[]: no number under \"\(key)\"" }
    }

    /// The team's parser: JSONSerialization, keys read by name. `dateKey` lets a test plant the
    /// bug a hand-written parser has (a key the body does not have).
    static func resource(dateKey: String = "created_at") -> SwiftTalkResource<[HandParsedActivity]> {
        SwiftTalkResource(path: "/v1/activities") { data in
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let activities = object?["activities"] as? [[String: Any]] ?? []
            return try activities.map { activity in
                guard let id = activity["id"] as? Int else { throw Missing(key: "id") }
                guard let seconds = activity[dateKey] as? Double ?? (activity[dateKey] as? Int).map(Double.init) else {
                    throw Missing(key: dateKey)
                }
                return HandParsedActivity(id: id, createdAt: Date(timeIntervalSince1970: seconds))
            }
        }
    }
}

struct DocumentedCategory: Codable, Sendable {
    var id: Int
    var name: String
}

enum DocumentedEntryPoints {
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// The activities route checked through its hand-written parser.
    static func activitiesCheck(dateKey: String = "created_at") -> RouteCheck {
        let resource = HandParsedActivity.resource(dateKey: dateKey)
        return RouteCheck(
            name: "activities", contract: "activities",
            request: { baseURL in URLRequest(url: baseURL.appendingPathComponent(String(resource.path.dropFirst()))) },
            responses: [
                // documented: `.custom("Name") { data in try yourParser(data) }`
                "default": .custom("HandParsedActivity") { data in try resource.parse(data) },
                "page2": .custom("HandParsedActivity") { data in try resource.parse(data) },
            ])
    }

    static func decoders() -> [ResponseDecoder] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return [
            // documented: `.decoding(M.self, with: yourJSONDecoder, encoder: yourEncoder)`
            .decoding(DocumentedCategory.self, with: decoder(), encoder: encoder),
            // documented: `.decoding(M.self, with:)`
            .decoding(DocumentedCategory.self, with: decoder()),
            // documented: `.clientKit(M.self)`
            .clientKit(DocumentedCategory.self),
        ]
    }

    static func transports(session: URLSession) -> [Transport] {
        [
            // documented: `.urlSession(session)`
            .urlSession(session),
            // documented: `Transport { request in … return (data, httpResponse) }`
            Transport { request in
                let (data, httpResponse) = try await Transport.urlSession(session).send(request)
                return (data, httpResponse)
            },
        ]
    }

    static func session() -> URLSession {
        // documented: `DecliningAuthChallenges()`
        URLSession(configuration: .ephemeral, delegate: DecliningAuthChallenges(), delegateQueue: nil)
    }

    static func options(deepLinks: DeepLinkCheck) -> [VerifyOptions] {
        // documented: `.all`
        // documented: `.claimed`
        // documented: `.contracts([...])`
        let scopes: [VerifyOptions.Scope] = [.all, .claimed, .contracts(["activities"])]
        return scopes.map { scope in
            var options = VerifyOptions(scope: scope, strictCoverage: true, strictDrift: false, transport: .shared, deepLinks: deepLinks)
            options.strictDrift = true
            options.adminToken = nil
            return options
        }
    }

    /// Every part of the report the docs name, read as a team's test reads it.
    static func summary(of report: VerifyReport) -> [String] {
        var lines = ["exit \(report.exitCode)"]
        for route in report.routes {
            // documented: `.pass`
            // documented: `.fail`
            let outcome = route.outcome == .pass ? "pass" : route.outcome == .fail ? "fail" : "?"
            lines.append("\(route.name) (\(route.contract)): \(outcome), sent \(route.request?.method ?? "nothing") \(route.request?.url ?? "")")
            lines += route.failures.map { "  \($0.check.rawValue): \($0.message)" }
            lines += route.warnings.map { "  warning: \($0)" }
            lines += route.unhandledResponses.map { "  unhandled: \($0)" }
        }
        lines += report.uncoveredContracts.map { "uncovered: \($0)" }
        lines += report.deadLinks.map(\.description)
        lines += report.notes
        return lines
    }

    static func renderings(of report: VerifyReport) -> [String] {
        // documented: `TextReport.render(report)`
        [TextReport.render(report), JSONReport.render(report), JUnitReport.render(report, name: "contract-gate")]
    }

    static func uncovered(set: ContractSet, checks: [RouteCheck]) -> [String] {
        // documented: `ContractRunner(set: set, checks: checks).uncoveredContracts`
        ContractRunner(set: set, checks: checks).uncoveredContracts
    }

    static func runAgainst(_ url: URL, set: ContractSet) async throws -> VerifyReport {
        // documented: `run(against: URL)`
        try await ContractRunner(set: set, checks: [activitiesCheck()], options: VerifyOptions(scope: .claimed)).run(against: url)
    }

    /// A gate's `main`, in both documented forms (built, not run: it exits the process).
    static func gateMain(generated: Bool) async {
        // documented: `VerifyGate(name:packageFile:)`
        let gate = VerifyGate(name: "contract-gate", packageFile: #filePath)
        // documented: `VerifyGate(name:packageFile:answersFor:)`
        _ = VerifyGate(name: "contract-gate", packageFile: #filePath, answersFor: ["activities"])
        if generated {
            // documented: `VerifyCommand.main(checks: { set in … })`
            // (A team sees the set, not its contracts: `ContractSet.contracts` is not public.)
            await VerifyCommand.main(gate: gate, checks: { set in [activitiesCheck()] })
        } else {
            await VerifyCommand.main(gate: gate, checks: [activitiesCheck()], transport: .shared)
        }
    }

    static func withServer() async throws -> Int {
        // documented: `withMockServer { … }`
        try await withMockServer { server in
            server.journal().count + server.requests(contract: "activities", status: 200).count
        }
    }

    // ClientKit, as docs/swift.md and docs/recipes.md name it.

    static func clientKitCheck() -> RouteCheck {
        // documented: `RouteCheck(name:contract:endpoint:configuration:responses:)`
        RouteCheck(
            name: "categories", contract: "categories", endpoint: Endpoint(.get, "/v1/categories"),
            configuration: ClientConfiguration(environment: .local(port: 0)), responses: ["default": .clientKit(DocumentedCategory.self)])
    }

    static func environment(_ launchValue: String) -> APIEnvironment? {
        // documented: `APIEnvironment.parse(_:known:)`
        APIEnvironment.parse(launchValue, known: [.local(port: 8080)])
    }

    static func describe(_ error: APIError) -> String {
        switch error {
        // documented: `.server(status:envelope:body:)`
        case .server(let status, let envelope, let body): "\(status) \(envelope?.errorMessages ?? []) \(body.count) bytes"
        // documented: `.decoding(DecodingFailure)`
        case .decoding(let failure): "\(failure)"
        // documented: `.transport(error)`
        case .transport(let error): "\(error)"
        // documented: `.invalidResponse(reason)`
        case .invalidResponse(let reason): reason
        }
    }

    static func delays() -> [RetryDelay] {
        // documented: `.immediate`
        // documented: `.constant`
        // documented: `.exponential(initial:multiplier:max:)`
        // documented: `.custom`
        [.immediate, .constant(.milliseconds(100)), .exponential(initial: .milliseconds(200), multiplier: 2, max: .seconds(2)), .custom { .seconds($0) }]
    }

    /// A UI test's session (docs/recipes.md): reset mid-test, or ended when nothing gates on it.
    static func restartAndEnd(_ session: MockAPISession) async throws {
        // documented: `session.reset()`
        try await session.reset()
        // documented: `session.delete()`
        try await session.delete()
    }
}
