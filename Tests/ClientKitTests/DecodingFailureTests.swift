import Foundation
import Testing

@testable import ClientKit
@testable import DecodingDiagnostics

@Suite struct DecodingFailureTests {
    struct Creator: Decodable { var id: Int; var avatarUrl: String? }
    struct Project: Decodable { var creator: Creator; var backersCount: Int }
    struct Activity: Decodable { var project: Project }

    private let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 1)))

    private func failure<M: Decodable>(decoding json: String, as type: M.Type) -> DecodingFailure? {
        do {
            _ = try client.decode(M.self, from: Data(json.utf8), endpoint: "GET /v1/activities")
            return nil
        } catch let APIError.decoding(failure) {
            return failure
        } catch {
            return nil
        }
    }

    private func activities(_ lastCreatorID: String) -> String {
        let good = #"{"project": {"backers_count": 1, "creator": {"id": 1}}}"#
        let bad = #"{"project": {"backers_count": 1, "creator": {"id": \#(lastCreatorID)}}}"#
        return "[\(good), \(good), \(good), \(bad)]"
    }

    @Test func typeMismatchNamesIndexPathAndBothTypes() {
        let failure = failure(decoding: activities(#""7""#), as: [Activity].self)
        #expect(failure?.path == "[3].project.creator.id")
        #expect(failure?.message == "expected Int, found String")
        #expect(failure?.description == "GET /v1/activities: [3].project.creator.id: expected Int, found String")
    }

    @Test func nullWhereAValueIsRequired() {
        let failure = failure(decoding: activities("null"), as: [Activity].self)
        #expect(failure?.path == "[3].project.creator.id")
        #expect(failure?.message == "expected Int, found null")
    }

    @Test func missingKeyIsNamedAsTheBodySpellsIt() {
        let failure = failure(decoding: #"{"creator": {"id": 1}}"#, as: Project.self)
        #expect(failure?.path == "backers_count")
        #expect(failure?.message == "missing key")
    }

    /// A hand-written `CodingKeys` that spells a key its own way: the body's spelling is named.
    @Test func missingKeyNamesTheBodysNearKeyForAHandWrittenDecoder() {
        struct Counts: Decodable {
            var backersCount: Int
            enum CodingKeys: String, CodingKey { case backersCount = "backer_count" }
        }
        let failure = failure(decoding: #"{"id": 1, "backers_count": 412, "name": "x"}"#, as: Counts.self)
        #expect(failure?.path == "backer_count")
        #expect(failure?.message == "missing key (the body has backers_count here: does the decoder's CodingKey spell it another way?)")
    }

    @Test func nearKeyIsOnlyNamedWhenOneKeyIsClose() {
        #expect(DecodingFailure.nearKey(to: "backers", among: ["id", "backers_count"]) == "backers_count")
        #expect(DecodingFailure.nearKey(to: "backerCount", among: ["backers_count", "name"]) == "backers_count")
        #expect(DecodingFailure.nearKey(to: "staffPick", among: ["staff_picks", "state"]) == "staff_picks")
        #expect(DecodingFailure.nearKey(to: "title", among: ["name", "slug", "blurb"]) == nil)
        #expect(DecodingFailure.nearKey(to: "id", among: ["ids", "idx"]) == nil, "two equally close keys: neither is named")
        #expect(DecodingFailure.nearKey(to: "url", among: ["uri"]) == "uri")
    }

    @Test func snakeCaseKeysKeepTheirSpellingInThePath() {
        let failure = failure(decoding: #"{"backers_count": 1, "creator": {"id": 1, "avatar_url": 5}}"#, as: Project.self)
        #expect(failure?.path == "creator.avatar_url")
        #expect(failure?.message == "expected String, found Int")
    }

    @Test func objectWhereAnArrayIsExpected() {
        let failure = failure(decoding: #"{"project": {}}"#, as: [Activity].self)
        #expect(failure?.path == "")
        #expect(failure?.message == "expected Array, found Object")
    }

    @Test func invalidValueKeepsDecodersExplanation() {
        enum State: String, Decodable { case live, successful }
        struct Summary: Decodable { var state: State }
        let failure = failure(decoding: #"{"state": "archived"}"#, as: Summary.self)
        #expect(failure?.path == "state")
        #expect(failure?.message.contains("archived") == true)
    }

    @Test func fractionWhereAnIntIsExpectedIsNotCalledInvalidJSON() {
        let failure = failure(decoding: #"{"id": 1.5}"#, as: Creator.self)
        #expect(failure?.message.contains("does not fit") == true)
    }

    @Test func jsonNullIsNilForAnOptional() throws {
        #expect(try client.decode(Creator?.self, from: Data("null".utf8)) == nil)
    }

    @Test func invalidAndEmptyBodies() {
        #expect(failure(decoding: "{", as: Project.self)?.message == "invalid JSON")
        #expect(failure(decoding: "", as: Project.self)?.message == "empty body")
    }

    @Test func snakeCaseConversionMatchesFoundation() {
        #expect(DecodingFailure.snakeCase("backersCount") == "backers_count")
        #expect(DecodingFailure.snakeCase("avatarURL") == "avatar_url")
        #expect(DecodingFailure.snakeCase("urlString") == "url_string")
        #expect(DecodingFailure.snakeCase("id") == "id")
    }

    @Test(arguments: [
        (
            #"{"at": "2024-05-01T10:00:00Z"}"#, JSONDecoder.DateDecodingStrategy.secondsSince1970,
            "at: expected Double, found String (if this is a Date, the value looks like dateDecodingStrategy .iso8601: is the decoder set to it?)"
        ),
        (
            #"{"at": 1714557600}"#, .iso8601,
            "at: expected String, found Int (if this is a Date, the value looks like dateDecodingStrategy .secondsSince1970: is the decoder set to it?)"
        ),
        (
            #"{"at": 1714557600000}"#, .iso8601,
            "at: expected String, found Int (if this is a Date, the value looks like dateDecodingStrategy .millisecondsSince1970: is the decoder set to it?)"
        ),
        (#"{"at": "yesterday"}"#, .secondsSince1970, "at: expected Double, found String"),
    ])
    func wrongDateStrategyNamesTheOneTheValueLooksLike(json: String, strategy: JSONDecoder.DateDecodingStrategy, expected: String) throws {
        struct Event: Decodable { var at: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = strategy
        do {
            _ = try decoder.decode(Event.self, from: Data(json.utf8))
            Issue.record("\(json) must not decode")
        } catch let error as DecodingError {
            #expect(DecodingFailure(error, data: Data(json.utf8), endpoint: "").description == expected)
        }
    }
}
