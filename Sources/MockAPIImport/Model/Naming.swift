/// Names for contracts, responses, folders and path parameters, all within what the contract format accepts.
enum Naming {
    /// `listPets` → `list_pets`, `GET /v1/pets/{id}` pieces → `get_v1_pets_id`; only `[a-z0-9_]`.
    static func snakeCase(_ text: String) -> String {
        var out = ""
        var previous: Character?
        for character in text {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                out += "_"
            }
            if character.isLetter || character.isNumber, character.isASCII {
                out += character.lowercased()
            } else if !out.hasSuffix("_"), !out.isEmpty {
                out += "_"
            }
            previous = character
        }
        while out.hasSuffix("_") { out.removeLast() }
        return out.isEmpty ? "unnamed" : out
    }

    /// A path parameter name the template accepts (`[A-Za-z0-9_]`), keeping the original's spelling where it can.
    static func parameterName(_ text: String) -> String {
        let cleaned = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        return cleaned.isEmpty ? "param" : cleaned
    }

    /// The folder a route's files go in: its first segment that is not `api` or a version (`v1`).
    static func folder(forPathSegments segments: [String]) -> String {
        let meaningful = segments.first { segment in
            let lower = segment.lowercased()
            let isVersion = lower.count > 1 && lower.first == "v" && lower.dropFirst().allSatisfy(\.isNumber)
            return !segment.hasPrefix("{") && lower != "api" && !isVersion && !segment.isEmpty
        }
        return meaningful.map { String(snakeCase($0).prefix(maxLength)) } ?? "root"
    }

    /// A response name for a status: `not_found` for 404, `status_418` for one without a common name.
    static func responseName(forStatus status: Int) -> String {
        switch status {
        case 200: "ok"
        case 201: "created"
        case 202: "accepted"
        case 204: "no_content"
        case 301: "moved"
        case 302: "found"
        case 304: "not_modified"
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 410: "gone"
        case 412: "precondition_failed"
        case 413: "too_large"
        case 415: "unsupported_media_type"
        case 422: "unprocessable"
        case 429: "too_many_requests"
        case 500: "server_error"
        case 502: "bad_gateway"
        case 503: "unavailable"
        case 504: "gateway_timeout"
        default: "status_\(status)"
        }
    }

    /// The longest name `unique` and `folder` give: a fixture's file name is a contract name, `_`,
    /// a response name and an extension, which stays under the usual 255-byte limit.
    static let maxLength = 100

    /// `name` (its first `maxLength` characters), or `name_2`, `name_3`… when taken; records the result as taken.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        let name = String(name.prefix(maxLength))
        var candidate = name
        var counter = 2
        while taken.contains(candidate) {
            candidate = "\(name)_\(counter)"
            counter += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
