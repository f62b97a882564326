import Foundation
import MockAPICore

/// Named responses, and what chooses each, from the recorded answers of one contract.
extension TrafficInference {
    /// The answer as its fixture will hold it: JSON pretty-printed, text and JSON with the
    /// recorded hosts as `{{baseURL}}`, anything else byte for byte.
    /// Credentials are cut out (`SecretScrubber`): an answer may echo the request.
    static func answer(_ exchange: RecordedExchange, rewriter: BaseURLRewriter, scrubber: SecretScrubber) -> Answer {
        var answer = bodyAnswer(exchange, rewriter: rewriter, scrubber: scrubber)
        answer.headers = responseHeaders(exchange, fileExtension: answer.fileExtension, rewriter: rewriter, scrubber: scrubber)
        return answer
    }

    private static func bodyAnswer(_ exchange: RecordedExchange, rewriter: BaseURLRewriter, scrubber: SecretScrubber) -> Answer {
        let body = exchange.responseBody, mediaType = exchange.responseMediaType
        guard !body.isEmpty else { return Answer(status: exchange.status, fixture: [], fileExtension: "", json: nil) }
        let declaredJSON = mediaType == "application/json" || mediaType.hasSuffix("+json")
        if declaredJSON || mediaType.isEmpty || mediaType == "text/plain", let value = try? JSONParser.parse(body),
            declaredJSON || value.objectValue != nil || value.typeName == "array"
        {
            let rewritten = rewriter.rewrite(scrubber.scrub(value))
            let text = escapingRecordedBraces(rewritten.prettySerialized) + "\n"
            return Answer(status: exchange.status, fixture: Array(text.utf8), fileExtension: "json", json: rewritten)
        }
        let fileExtension = fileExtension(forMediaType: mediaType)
        if ["txt", "html", "xml", "csv", "svg"].contains(fileExtension), let text = String(validating: body, as: UTF8.self) {
            return Answer(status: exchange.status, fixture: Array(rewriter.rewrite(scrubber.scrub(text)).utf8), fileExtension: fileExtension, json: nil)
        }
        return Answer(status: exchange.status, fixture: body, fileExtension: fileExtension, json: nil)
    }

    /// `{{` that the recorded answer itself had (a template in a CMS text, `{{name}}`) written as
    /// `{\u007b`: the same JSON string, which mockapi does not take for a placeholder. Pretty-printed
    /// JSON has `{{` only inside strings, so only our `{{baseURL}}` stays as it is.
    static func escapingRecordedBraces(_ json: String) -> String {
        guard json.contains("{{") else { return json }
        var out = "", rest = Substring(json)
        while let range = rest.range(of: "{{") {
            out += rest[..<range.lowerBound]
            out += rest[range.lowerBound...].hasPrefix(BaseURLRewriter.placeholder) ? "{{" : "{\\u007b"
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// The responses (`default` first), the sequence, and the fixtures they reference, chosen so
    /// that the recorded requests, sent again in order, get the recorded answers:
    /// - an answer whose requests share values no request with another answer has (a query
    ///   value, a body key or form field, the body's type) gets a `when` on the fewest of them;
    /// - the answers left (those of requests nothing but time tells apart) are `default` and, when
    ///   they differ, a `sequence` of them in the recorded order (a `when` does not advance it).
    /// Credentials are never a rule (`SecretScrubber`): a login told apart only by its password
    /// replays in order.
    static func responses(for entries: [Observed], folder: String, contract: String, scrubber: SecretScrubber)
        -> ([ContractDraft.Response], [String]?, [ImportedSet.Fixture])
    {
        var answers: [(answer: Answer, entries: [Observed])] = []
        for entry in entries {
            if let index = answers.firstIndex(where: { $0.answer == entry.answer }) { answers[index].entries.append(entry) } else { answers.append((entry.answer, [entry])) }
        }
        guard answers.count > 1 else {
            return finish([(entries[0].answer, ContractDraft.Response(name: "default", status: entries[0].answer.status))], sequence: nil, folder: folder, contract: contract)
        }
        let discriminator = discriminator(entries, scrubber: scrubber)
        func others(_ answer: Answer) -> [Observed] { entries.filter { $0.answer != answer } }
        let rules = answers.map { rule(for: $0.entries, against: others($0.answer), discriminator: discriminator, scrubber: scrubber) }
        // The default answers what no rule picks: an answer with no rule of its own, else the first success.
        let unruled = answers.indices.filter { rules[$0] == nil }
        let defaultIndex =
            unruled.first { (200..<300).contains(answers[$0].answer.status) } ?? unruled.first
            ?? answers.firstIndex { (200..<300).contains($0.answer.status) } ?? 0
        let defaultAnswer = answers[defaultIndex].answer

        var taken: Set<String> = ["default"]
        var named: [(answer: Answer, response: ContractDraft.Response)] = [(defaultAnswer, ContractDraft.Response(name: "default", status: defaultAnswer.status))]
        for (index, (answer, group)) in answers.enumerated() where index != defaultIndex {
            // A rule for the whole answer, else one for each kind of its requests that has one.
            var ruled: [(RequestMatch, [Observed])] = []
            if let whole = rules[index] {
                ruled = [(whole, group)]
            } else {
                var kinds: [[Observed]] = []
                for entry in group {
                    let features = conditions(of: entry, scrubber: scrubber)
                    if let kind = kinds.firstIndex(where: { conditions(of: $0[0], scrubber: scrubber) == features }) { kinds[kind].append(entry) } else { kinds.append([entry]) }
                }
                for kind in kinds {
                    if let match = rule(for: kind, against: others(answer), discriminator: discriminator, scrubber: scrubber) { ruled.append((match, kind)) }
                }
            }
            for (match, _) in ruled {
                let name = Naming.unique(ruleName(match, answer: answer, defaultStatus: defaultAnswer.status, discriminator: discriminator), in: &taken)
                var response = ContractDraft.Response(name: name, status: answer.status)
                response.when = match
                named.append((answer, response))
            }
            if ruled.reduce(0, { $0 + $1.1.count }) < group.count {
                // Some requests of this answer only time tells apart: a step of the sequence.
                let name = Naming.unique(stateName(answer) ?? Naming.responseName(forStatus: answer.status), in: &taken)
                named.append((answer, ContractDraft.Response(name: name, status: answer.status)))
            }
        }
        // What the mock does with each request, as `ResponseSelector` does: the first `when` that
        // holds, else the sequence's next step.
        var steps: [String] = []
        var replayed = true
        for entry in entries {
            if let picked = named.first(where: { $0.response.when?.admits(query: entry.arguments, body: entry.body, contentType: entry.contentType) == true }) {
                replayed = replayed && picked.answer == entry.answer
            } else if let step = named.first(where: { $0.answer == entry.answer && $0.response.when == nil }) {
                steps.append(step.response.name)
            } else {
                replayed = false
            }
        }
        guard replayed else {
            // Not expected (every rule keeps out the other answers' requests); should it happen,
            // every answer in the recorded order still replays.
            var plain: [(answer: Answer, response: ContractDraft.Response)] = []
            var names: Set<String> = ["default"]
            for (offset, (answer, _)) in answers.enumerated() {
                let name = offset == 0 ? "default" : Naming.unique(stateName(answer) ?? Naming.responseName(forStatus: answer.status), in: &names)
                plain.append((answer, ContractDraft.Response(name: name, status: answer.status)))
            }
            return finish(plain, sequence: entries.map { entry in plain.first { $0.answer == entry.answer }!.response.name }, folder: folder, contract: contract)
        }
        return finish(named, sequence: Set(steps).count > 1 ? steps : nil, folder: folder, contract: contract)
    }

    /// One value a request carries that a `when` may name: never a credential's key nor a
    /// value holding a secret.
    enum Condition: Equatable {
        case query(String, String)
        case body(String, JSONValue)
        case contentType(String)

        var match: RequestMatch {
            switch self {
            case .query(let name, let value): RequestMatch(query: [(name, value)])
            case .body(let key, let value): RequestMatch(json: [(key, value)])
            case .contentType(let type): RequestMatch(contentType: type)
            }
        }
    }

    /// What a rule for `entry` may name, in the order a rule prefers them: query values, then
    /// body keys, then the body's type.
    static func conditions(of entry: Observed, scrubber: SecretScrubber) -> [Condition] {
        func usable(_ key: String, _ value: String) -> Bool { !scrubber.credentials.isCredential(key) && !scrubber.holdsSecret(value) }
        var found: [Condition] = []
        for argument in entry.arguments where !argument.name.hasSuffix("[]") {
            // A key sent without `=` has no value a rule can name.
            if let value = argument.value, usable(argument.name, value), !found.contains(.query(argument.name, value)) { found.append(.query(argument.name, value)) }
        }
        switch entry.body {
        case .json(.object(let object)):
            for (key, value) in object.members {
                switch value {
                case .string(let text) where usable(key, text): found.append(.body(key, value))
                case .int, .bool, .double: if usable(key, value.serialized) { found.append(.body(key, value)) }
                default: break
                }
            }
        case .form(let fields):
            for field in fields {
                if let value = field.value, usable(field.name, value), !found.contains(where: { if case .body(field.name, _) = $0 { true } else { false } }) {
                    found.append(.body(field.name, .string(value)))
                }
            }
        default: break
        }
        if let type = entry.contentType.map(MediaType.essence), !type.isEmpty { found.append(.contentType(type)) }
        return found
    }

    /// The fewest conditions every request of `group` keeps and none of `others` keeps together;
    /// nil when they cannot tell the group apart. Each step takes the condition that keeps out the
    /// most requests left, a known discriminator (`intent`) first on a tie.
    static func rule(for group: [Observed], against others: [Observed], discriminator: String?, scrubber: SecretScrubber) -> RequestMatch? {
        guard let first = group.first, !others.isEmpty else { return nil }
        var shared = conditions(of: first, scrubber: scrubber).filter { condition in
            group.allSatisfy { condition.match.admits(query: $0.arguments, body: $0.body, contentType: $0.contentType) }
        }
        if let discriminator, let index = shared.firstIndex(where: { if case .body(discriminator, _) = $0 { true } else { false } }) {
            shared.insert(shared.remove(at: index), at: 0)
        }
        var chosen = RequestMatch(), left = others
        while !left.isEmpty {
            let excluded = shared.map { condition in left.filter { !condition.match.admits(query: $0.arguments, body: $0.body, contentType: $0.contentType) }.count }
            guard let best = excluded.indices.max(by: { excluded[$0] < excluded[$1] || (excluded[$0] == excluded[$1] && $0 > $1) }), excluded[best] > 0 else { return nil }
            switch shared.remove(at: best) {
            case .query(let name, let value): chosen.query.append((name, value))
            case .body(let key, let value): chosen.json.append((key, value))
            case .contentType(let type): chosen.contentType = type
            }
            left = left.filter { chosen.admits(query: $0.arguments, body: $0.body, contentType: $0.contentType) }
        }
        return chosen
    }

    /// `page_2` for a page of the default's status, `intent_login` for a discriminator, `form` for
    /// a body type, else the status (`bad_request`).
    private static func ruleName(_ match: RequestMatch, answer: Answer, defaultStatus: Int, discriminator: String?) -> String {
        if match.query.count == 1, match.json.isEmpty, match.contentType == nil, answer.status == defaultStatus {
            return Naming.snakeCase("\(match.query[0].name)_\(match.query[0].value)")
        }
        if match.query.isEmpty, match.json.count == 1, match.json[0].key == discriminator {
            return Naming.snakeCase("\(match.json[0].key)_\(match.json[0].value.stringValue ?? match.json[0].value.serialized)")
        }
        if match.query.isEmpty, match.json.isEmpty, let type = match.contentType, answer.status == defaultStatus {
            switch type {
            case MediaType.form: return "form"
            case "multipart/form-data": return "multipart"
            default: return Naming.snakeCase(type.split(separator: "/").last.map(String.init) ?? type)
            }
        }
        return Naming.responseName(forStatus: answer.status)
    }

    /// A poll's states are best named by what they say: `"status": "done"` → `done`.
    private static func stateName(_ answer: Answer) -> String? {
        guard let object = answer.json?.objectValue else { return nil }
        for key in ["status", "state"] {
            if let value = object[key]?.stringValue, !value.isEmpty, value.count <= 40 { return Naming.snakeCase(value) }
        }
        return nil
    }

    private static func finish(
        _ named: [(answer: Answer, response: ContractDraft.Response)], sequence: [String]?, folder: String,
        contract: String
    ) -> ([ContractDraft.Response], [String]?, [ImportedSet.Fixture]) {
        var fixtures: [ImportedSet.Fixture] = []
        let responses = named.map { answer, response in
            var response = response
            response.headers = answer.headers
            if !answer.fixture.isEmpty {
                if let existing = fixtures.first(where: { $0.bytes == answer.fixture }) {
                    response.fixture = existing.path
                } else {
                    let path = "\(folder)/\(contract)\(response.name == "default" ? "" : "_" + response.name).\(answer.fileExtension)"
                    fixtures.append(ImportedSet.Fixture(path: path, bytes: answer.fixture))
                    response.fixture = path
                }
            }
            return response
        }
        return (responses, sequence, fixtures)
    }

    static func fileExtension(forMediaType type: String) -> String {
        switch type {
        case "text/plain": "txt"
        case "text/html": "html"
        case "application/xml", "text/xml": "xml"
        case "text/csv": "csv"
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/svg+xml": "svg"
        case "video/mp4": "mp4"
        case "video/quicktime": "mov"
        case "application/pdf": "pdf"
        default: "bin"
        }
    }
}
