import Foundation
import MockAPITestSupport
import MockAPIVerify
import Testing

/// Drift from what the decoder read (issue 31): a hand-written `init(from:)` that reads a key
/// under its own name is found even when the model encodes the right one and its default is
/// not empty, and a `Decodable`-only model gets drift at all. Each runs the runner's own
/// in-process server on 127.0.0.1 and a free port.
@Suite struct KeyReadsTests {
    static func snakeCaseDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    private func run(_ contract: String, path: String, _ decoder: ResponseDecoder) async throws -> VerifyReport {
        let check = RouteCheck(
            name: contract, contract: contract, request: { URLRequest(url: $0.appendingPathComponent(path)) },
            responses: ["default": decoder])
        let set = try ContractSet.load(contracts: BundledAPI.contracts, fixtures: BundledAPI.fixtures)
        return try await ContractRunner(set: set, checks: [check], options: VerifyOptions(scope: .claimed)).run()
    }

    /// Reads `backers` (the body says `backers_count`) with a default of 1, encodes
    /// `backers_count`: re-encoding sees the key as read and 1 as a value, so only the reads tell.
    struct DefaultedProject: Codable {
        var id: Int
        var backersCount: Int
        enum CodingKeys: String, CodingKey { case id, backersCount }
        enum Keys: String, CodingKey { case id, backers }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(Int.self, forKey: .id)
            backersCount = try container.decodeIfPresent(Int.self, forKey: .backers) ?? 1
        }
    }

    @Test func aKeyReadUnderAnotherNameIsNamedWithTheBodysKey() async throws {
        let report = try await run("project", path: "v1/projects/42", .decoding(DefaultedProject.self, with: Self.snakeCaseDecoder()))

        let warning = try #require(report.route("project")?.warnings.first)
        #expect(warning.hasPrefix("fixtures/projects/project.json: keys DefaultedProject never reads: "), "\(warning)")
        #expect(warning.contains(" backers_count, "), "the key it never read, though it encodes it: \(warning)")
        #expect(warning.hasSuffix("; keys DefaultedProject asks for that the body lacks: backers (the body has backers_count)"), "\(warning)")
        #expect(report.notes == [])
    }

    /// The same decoder on a model that is only `Decodable`: drift is checked from its reads.
    struct ReadOnlyProject: Decodable {
        var id: Int
        var backersCount: Int
        enum Keys: String, CodingKey { case id, backers }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(Int.self, forKey: .id)
            backersCount = try container.decodeIfPresent(Int.self, forKey: .backers) ?? 0
        }
    }

    @Test func aDecodableOnlyModelGetsDriftFromItsReads() async throws {
        let report = try await run("project", path: "v1/projects/42", .decoding(ReadOnlyProject.self, with: Self.snakeCaseDecoder()))

        #expect(report.notes == [], "drift is checked: no \"not Encodable\" note")
        let warning = try #require(report.route("project")?.warnings.first)
        #expect(warning.hasSuffix("; keys ReadOnlyProject asks for that the body lacks: backers (the body has backers_count)"), "\(warning)")
    }

    /// Synthesized keys through snake_case, a nested object, a date: read keys are not drift.
    struct Project: Decodable {
        struct Creator: Decodable { var id: Int }
        var id: Int
        var backersCount: Int
        var staffPick: Bool
        var launchedAt: Date
        var creator: Creator
        var nickname: String? // absent from the body, and no body key is near it: no finding
    }

    @Test func keysReadThroughSnakeCaseNestedAndDatesAreNotDrift() async throws {
        let report = try await run("project", path: "v1/projects/42", .decoding(Project.self, with: Self.snakeCaseDecoder()))

        let warning = try #require(report.route("project")?.warnings.first)
        let unread = Set(
            warning.replacingOccurrences(of: "fixtures/projects/project.json: keys Project never reads: ", with: "")
                .components(separatedBy: ", "))
        #expect(unread.isDisjoint(with: ["id", "backers_count", "staff_pick", "launched_at", "creator", "creator.id"]), "\(warning)")
        #expect(unread.isSuperset(of: ["name", "creator.name", "creator.avatar", "creator.avatar.small", "category.id"]), "\(warning)")
        #expect(!warning.contains("asks for"), "\(warning)")
    }

    /// A misspelt key inside the elements of an array is named once, by its folded path.
    struct Feed: Decodable {
        struct Item: Decodable {
            var id: Int
            var category: String?
            enum Keys: String, CodingKey { case id, categry }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                id = try container.decode(Int.self, forKey: .id)
                category = try container.decodeIfPresent(String.self, forKey: .categry)
            }
        }
        var activities: [Item]
    }

    @Test func aMisspeltKeyInArrayElementsIsNamedByItsFoldedPath() async throws {
        let report = try await run("activities", path: "v1/activities", .decoding(Feed.self, with: Self.snakeCaseDecoder()))

        let warning = try #require(report.route("activities")?.warnings.first)
        #expect(warning.hasPrefix("fixtures/activities/page1.json: keys Feed never reads: "), "\(warning)")
        #expect(warning.contains("activities[].category, "), "\(warning)")
        #expect(warning.hasSuffix("; keys Feed asks for that the body lacks: activities[].categry (the body has category)"), "\(warning)")
    }

    /// A `.custom` closure: what it reads cannot be known, and the report says so plainly.
    @Test func aCustomDecoderSaysItsReadsCannotBeKnown() async throws {
        let report = try await run(
            "project", path: "v1/projects/42",
            .custom("HandParsedProject") { data in try Self.snakeCaseDecoder().decode(ReadOnlyProject.self, from: data) })

        #expect(report.route("project")?.warnings == [])
        #expect(report.notes == ["drift not checked: HandParsedProject is decoded by custom code (.custom), so which keys it reads cannot be known"])
    }
}
