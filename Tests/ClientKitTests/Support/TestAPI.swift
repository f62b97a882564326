import ClientKit
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport

/// A small API of our own, served by the mock server, to exercise ClientKit end to end.
enum TestAPI {
    /// A record every contract here returns.
    struct Widget: Codable, Sendable, Equatable {
        var id: Int
        var displayName: String
    }

    /// One page of `/v1/feed`.
    struct FeedPage: PaginatedResponse {
        var items: [Int]
        var nextPageUrl: String?
        var nextPageURL: String? { nextPageUrl }
    }

    static func contracts() throws -> TemporaryContractSet {
        try TemporaryContractSet(contracts: contractFiles, fixtures: fixtureFiles)
    }

    /// A client for `port` that records its retry waits in `sleeps` instead of sleeping.
    static func client(port: Int, token: String? = nil, retry: RetryPolicy = .none, sleeps: SleepRecorder = SleepRecorder()) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(
                environment: .local(port: port), appName: "ClientKitTests", appVersion: "1.0", token: token,
                timeout: 10, retry: retry, sleep: { sleeps.record($0) }
            ))
    }

    private static let contractFiles: [String: String] = [
        "widget.json": """
        {"name": "widget", "request": {"method": "GET", "path": "/v1/widgets/{id:int}"},
         "responses": {
           "default": {"status": 200, "body": {"id": 1, "display_name": "Gear"}},
           "not_found": {"status": 404, "fixture": "errors/not_found.json"},
           "portal": {"status": 200, "fixture": "portal.html"},
           "gone": {"status": 204}}}
        """,
        "widgets.json": """
        {"name": "widgets", "request": {"method": "GET", "path": "/v1/widgets",
           "query": {"ids": {"type": "int", "array": true, "required": false}, "q": {"required": false}}},
         "responses": {
           "default": {"status": 200, "body": [{"id": 1, "display_name": "A"}, {"id": "2", "display_name": "B"}]},
           "search": {"status": 200, "body": [{"id": 7, "display_name": "Found"}],
                      "when": {"query": {"q": "a b+c&d=e/f?g#h"}}}}}
        """,
        "update.json": """
        {"name": "update", "request": {"method": "PUT", "path": "/v1/widgets/{id:int}",
           "headers": {"Authorization": {"prefix": "token "}},
           "json": {"display_name": {"type": "string"}, "rank": {"type": "int"}, "note": {"type": "string", "required": false}}},
         "responses": {"default": {"status": 200, "body": {"id": 1, "display_name": "Renamed"}}}}
        """,
        "image.json": """
        {"name": "image", "request": {"method": "POST", "path": "/v1/widgets/{id:int}/image",
           "multipart": [{"name": "image", "contentTypes": ["image/jpeg", "image/png"], "maxBytes": 100000}]},
         "responses": {"default": {"status": 200, "body": {"id": 1, "display_name": "Gear"}}}}
        """,
        "lookup.json": """
        {"name": "lookup", "request": {"method": "GET", "path": "/v1/lookup", "query": {"id": {"type": "int"}}},
         "responses": {
           "default": {"status": 200, "body": {"id": 0, "display_name": "Unknown"}},
           "one": {"status": 200, "body": {"id": 1, "display_name": "One"}, "when": {"query": {"id": "1"}}},
           "two": {"status": 200, "body": {"id": 2, "display_name": "Two"}, "when": {"query": {"id": "2"}}},
           "three": {"status": 200, "body": {"id": 3, "display_name": "Three"}, "when": {"query": {"id": "3"}}},
           "missing": {"status": 404, "fixture": "errors/not_found.json", "when": {"query": {"id": "404"}}}}}
        """,
        "flaky.json": """
        {"name": "flaky", "request": {"method": "GET", "path": "/v1/flaky"},
         "responses": {
           "default": {"status": 200, "body": {"id": 3, "display_name": "Flaky"}},
           "unavailable": {"status": 503, "fixture": "errors/unavailable.json"}},
         "sequence": ["unavailable", "unavailable", "default"]}
        """,
        "down.json": """
        {"name": "down", "request": {"method": "GET", "path": "/v1/down"},
         "responses": {"default": {"status": 503, "fixture": "errors/unavailable.json"}}}
        """,
        "throttled.json": """
        {"name": "throttled", "request": {"method": "GET", "path": "/v1/throttled"},
         "responses": {
           "default": {"status": 200, "body": {"id": 4, "display_name": "Throttled"}},
           "slow_down": {"status": 429, "headers": {"Retry-After": "7"}, "fixture": "errors/unavailable.json"}},
         "sequence": ["slow_down", "default"]}
        """,
        "feed.json": """
        {"name": "feed", "request": {"method": "GET", "path": "/v1/feed", "query": {"page": {"type": "int", "required": false}}},
         "responses": {
           "default": {"status": 200, "body": {"items": [1, 2], "next_page_url": "/v1/feed?page=2"}},
           "second": {"status": 200, "body": {"items": [3, 4], "next_page_url": "v1/feed?page=3"}, "when": {"query": {"page": "2"}}},
           "third": {"status": 200, "body": {"items": [5], "next_page_url": null}, "when": {"query": {"page": "3"}}}}}
        """,
        "report.json": """
        {"name": "report", "request": {"method": "GET", "path": "/v1/report"},
         "responses": {"default": {"status": 200, "fixture": "report.txt"}}}
        """,
    ]

    private static let fixtureFiles: [String: String] = [
        "errors/not_found.json": #"{"error_messages": ["Widget not found"], "http_code": 404, "ksr_code": "not_found"}"#,
        "errors/unavailable.json": #"{"error_messages": ["Try again later"], "http_code": 503}"#,
        "portal.html": "<html><body>Sign in to the Wi-Fi</body></html>",
        "report.txt": "id,name\n1,Gear\n",
    ]
}
