import Foundation
import MockAPICore
import MockAPITestSupport
import MockAPIVerify
import TeamApp
import Testing

/// What the team of issue 31 hit in the runner's reports: the fixture a failure names, the
/// responses actually decoded, byte-checked uploads, and a route without a `default` decoder.
@Suite struct ServedResponseTests {
    /// The activity feed with a closed enum of categories: `missing` is the one it lacks.
    static func feedDecoder(missing: String) -> ResponseDecoder {
        .custom("Feed") { data in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.userInfo[Feed.missing] = missing
            return try decoder.decode(Feed.self, from: data)
        }
    }

    struct Feed: Decodable {
        static let missing = CodingUserInfoKey(rawValue: "missing")!
        struct Item: Decodable {
            var category: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                category = try container.decode(String.self, forKey: .category)
                if category == decoder.userInfo[Feed.missing] as? String {
                    throw DecodingError.dataCorruptedError(forKey: .category, in: container, debugDescription: "unknown category \"\(category)\"")
                }
            }
            enum CodingKeys: String, CodingKey { case category }
        }
        var activities: [Item]
    }

    /// The README's activities check: `cursor=2` on the plain request, so the contract's `when`
    /// answers it with `page2`.
    static func activitiesCheck(missing: String) -> RouteCheck {
        RouteCheck(
            name: "activities", contract: "activities",
            request: { baseURL in try TeamRouter.activities(cursor: 2).asURLRequest(baseURL: baseURL) },
            responses: ["default": feedDecoder(missing: missing), "page2": feedDecoder(missing: missing)])
    }

    private func run(_ checks: [RouteCheck], set: TemporaryContractSet? = nil, transport: Transport = .shared) async throws -> VerifyReport {
        let contracts = try ContractSet.load(contracts: set?.contracts ?? BundledAPI.contracts, fixtures: set?.fixtures ?? BundledAPI.fixtures)
        return try await ContractRunner(set: contracts, checks: checks, options: VerifyOptions(scope: .claimed, transport: transport)).run()
    }

    /// A value only page 2 has ("launch") breaks the decoder: the failure names page 2, the
    /// response the server served for the plain request, not `default`'s page 1; and it is
    /// reported once, though `page2` was asked for by name too.
    @Test func aFailureNamesTheFixtureTheServerServed() async throws {
        let report = try await run([Self.activitiesCheck(missing: "launch")])

        let failures = try #require(report.route("activities")).failures
        #expect(
            failures.map(\.message) == [
                """
                response "page2" (the server's answer to the plain request) does not decode into Feed:
                  fixtures/activities/page2.json: activities[0].category: unknown category "launch"
                """
            ])
        #expect(failures.map(\.check) == [.decoding])
    }

    /// A value only page 1 has ("backing"): the plain request never gets page 1, so the runner
    /// asks for `default` by name, and the bug fails the route naming page 1.
    @Test func eachNamedResponseIsDecodedEvenWhenThePlainRequestGetsAnother() async throws {
        let report = try await run([Self.activitiesCheck(missing: "backing")])

        let failures = try #require(report.route("activities")).failures
        #expect(
            failures.map(\.message) == [
                """
                response "default" (asked for with Prefer: example=default, as the plain request was answered with "page2") does not decode into Feed:
                  fixtures/activities/page1.json: activities[0].category: unknown category "backing"
                """
            ])
    }

    /// The clean decoder passes, and the server saw the plain request and each response asked for by name.
    @Test func theCleanDecoderPassesAndEveryResponseWasServed() async throws {
        try await withMockServer { server in
            let contracts = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
            let report = try await ContractRunner(set: contracts, checks: [Self.activitiesCheck(missing: "none")], options: VerifyOptions(scope: .claimed))
                .run(against: server.baseURL)
            #expect(report.exitCode == 0, "\(TextReport.render(report))")
            let served = server.requests(contract: "activities").map { "\($0.headers.value(for: "Prefer") ?? "plain") → \($0.response ?? "none")" }
            #expect(served == ["plain → page2", "example=page2 → page2", "example=default → default"])
        }
    }

    /// The README's team client sending PNG bytes as `image/jpeg`: passes a contract that does
    /// not ask, fails one whose part says `"checkBytes": true`, naming the part and the type seen.
    @Test func pngBytesLabelledJPEGFailTheUploadRouteWhenTheContractChecksBytes() async throws {
        let client = TeamClient(bugs: .pngLabelledJPEG)
        let unchecked = try await run(client.checks, transport: client.transport)
        #expect(unchecked.failedRouteNames == [], "without checkBytes the bytes are not looked at")

        let set = try TemporaryContractSet(copying: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let contract = try String(contentsOf: set.contracts.appendingPathComponent("drafts/upload_draft_image.json"), encoding: .utf8)
        let checked = contract.replacingOccurrences(of: #""maxBytes": 10485760"#, with: #""maxBytes": 10485760, "checkBytes": true"#)
        #expect(checked != contract)
        try set.write(checked, to: "contracts/drafts/upload_draft_image.json")

        let clean = try await run(TeamClient().checks, set: set, transport: TeamClient().transport)
        #expect(clean.failedRouteNames == [], "the clean client sends JPEG bytes as image/jpeg")
        let report = try await run(client.checks, set: set, transport: client.transport)
        #expect(report.failedRouteNames == ["upload_draft_image"])
        let failure = try #require(report.route("upload_draft_image")?.failures.first)
        #expect(failure.check == .contract)
        let expected = """
            problem:  the request breaks the contract (1 violation):
              part.image: its Content-Type says image/jpeg, but its bytes are image/png
            """
        #expect(failure.message.hasSuffix(expected), "\(failure.message)")
    }

    /// A route without a `default` decoder says plainly that every route needs one, and why.
    @Test func aRouteWithoutADefaultDecoderIsToldEveryRouteNeedsOne() async throws {
        var check = Self.activitiesCheck(missing: "none")
        check.responses["default"] = nil
        let report = try await run([check])

        let failure = try #require(report.route("activities")?.failures.first)
        #expect(failure.check == .contract)
        #expect(
            failure.message == """
                route activities declares no decoder for the "default" response of contract "activities" (it declares "page2"): \
                every route must declare a "default" decoder, for the answer to its plain request (sent without Prefer); \
                add "default": .decoding(Model.self, with: yourDecoder). Nothing was sent for this route.
                """)
    }
}

/// A hand-written `init(from:)` reading a key under its own name: the route's decoding failure
/// says which key the body has there (drift cannot: it sees only what the model encodes).
@Suite struct HandWrittenDecoderTests {
    struct Project: Decodable, Encodable {
        var id: Int
        var backersCount: Int
        enum Keys: String, CodingKey { case id, backers }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(Int.self, forKey: .id)
            backersCount = try container.decode(Int.self, forKey: .backers)
        }
    }

    @Test func aWrongKeyInInitFromIsNamedWithTheBodysKey() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let check = RouteCheck(
            name: "project", contract: "project",
            request: { URLRequest(url: $0.appendingPathComponent("v1/projects/42")) },
            responses: ["default": .decoding(Project.self, with: decoder)])
        let contracts = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let report = try await ContractRunner(set: contracts, checks: [check], options: VerifyOptions(scope: .claimed)).run()

        let failure = try #require(report.route("project")?.failures.first)
        #expect(
            failure.message == """
                response "default" does not decode into Project:
                  fixtures/projects/project.json: backers: missing key (the body has backers_count here: does the decoder's CodingKey spell it another way?)
                """)
    }
}

/// A hand-written `init(from:)` that reads a key under a wrong name and falls back to a default,
/// then encodes under the right one: key-based drift sees the key as read; the value it lost is
/// reported instead.
@Suite struct DefaultedValueTests {
    struct Project: Codable {
        var id: Int
        var backersCount: Int
        var staffPick: Bool
        enum CodingKeys: String, CodingKey { case id, backersCount, staffPick }
        enum Keys: String, CodingKey { case id, backers, staffPick }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(Int.self, forKey: .id)
            backersCount = try container.decodeIfPresent(Int.self, forKey: .backers) ?? 0
            staffPick = try container.decodeIfPresent(Bool.self, forKey: .staffPick) ?? false
        }
    }

    @Test func aValueReadUnderAWrongNameWithADefaultIsDrift() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let check = RouteCheck(
            name: "project", contract: "project",
            request: { URLRequest(url: $0.appendingPathComponent("v1/projects/42")) },
            responses: ["default": .decoding(Project.self, with: decoder)])
        let contracts = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        let report = try await ContractRunner(set: contracts, checks: [check], options: VerifyOptions(scope: .claimed, strictDrift: true)).run()

        let failure = try #require(report.route("project")?.failures.first)
        #expect(failure.check == .drift)
        #expect(failure.message.hasPrefix("fixtures/projects/project.json: keys Project never reads: "))
        #expect(
            failure.message.hasSuffix(
                "; values Project holds as empty where the body has one (is the key read under another name, with a default?): backers_count (body 412, model 0)"
            ), "\(failure.message)")
    }
}
