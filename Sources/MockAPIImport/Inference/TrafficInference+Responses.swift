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
        // Answers by index, each with its requests' indices: a capture may hold thousands.
        var answers: [(answer: Answer, members: [Int])] = []
        var answerOf: [Int] = []
        var byKey: [Answer.Key: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let key = entry.answer.key
            if let known = byKey[key] {
                answers[known].members.append(index)
                answerOf.append(known)
            } else {
                byKey[key] = answers.count
                answerOf.append(answers.count)
                answers.append((entry.answer, [index]))
            }
        }
        guard answers.count > 1 else {
            return finish([(entries[0].answer, ContractDraft.Response(name: "default", status: entries[0].answer.status))], sequence: nil, folder: folder, contract: contract)
        }
        let candidates = RuleCandidates(entries, answerOf: answerOf, scrubber: scrubber, discriminator: discriminator(entries, scrubber: scrubber))
        let rules = answers.indices.map { candidates.rule(for: answers[$0].members, answer: $0) }
        // The default answers what no rule picks: an answer with no rule of its own, else the first success.
        let unruled = answers.indices.filter { rules[$0] == nil }
        let defaultIndex =
            unruled.first { (200..<300).contains(answers[$0].answer.status) } ?? unruled.first
            ?? answers.firstIndex { (200..<300).contains($0.answer.status) } ?? 0
        let defaultStatus = answers[defaultIndex].answer.status

        var taken: Set<String> = ["default"]
        var named: [(answer: Answer, response: ContractDraft.Response)] = [(answers[defaultIndex].answer, ContractDraft.Response(name: "default", status: defaultStatus))]
        // The name of the response that answers each request no rule picks: its sequence step.
        var stepName: [Int: String] = [defaultIndex: "default"]
        var rulesOf: [Int: [RequestMatch]] = [:]
        for (index, (answer, members)) in answers.enumerated() where index != defaultIndex {
            // A rule for the whole answer, else one for each kind of its requests that has one.
            var ruled: [(match: RequestMatch, members: [Int])] = []
            if let whole = rules[index] {
                ruled = [(whole, members)]
            } else {
                var kinds: [[Int]] = []
                for member in members {
                    if let kind = kinds.firstIndex(where: { candidates.conditions[$0[0]] == candidates.conditions[member] }) { kinds[kind].append(member) } else { kinds.append([member]) }
                }
                for kind in kinds {
                    if let match = candidates.rule(for: kind, answer: index) { ruled.append((match, kind)) }
                }
            }
            rulesOf[index] = ruled.map(\.match)
            for (match, _) in ruled {
                var response = ContractDraft.Response(
                    name: Naming.unique(ruleName(match, answer: answer, defaultStatus: defaultStatus, discriminator: candidates.discriminator), in: &taken), status: answer.status)
                response.when = match
                named.append((answer, response))
            }
            if ruled.reduce(0, { $0 + $1.members.count }) < members.count {
                // Some requests of this answer only time tells apart: a step of the sequence.
                let name = Naming.unique(stateName(answer) ?? Naming.responseName(forStatus: answer.status), in: &taken)
                named.append((answer, ContractDraft.Response(name: name, status: answer.status)))
                stepName[index] = name
            }
        }
        // A rule keeps out every request of another answer (`RuleCandidates.rule`), so the mock
        // answers a request a rule picks as recorded; the others get the sequence's next step,
        // in the recorded order (a `when` does not advance it).
        let steps = entries.indices.filter { index in !(rulesOf[answerOf[index]] ?? []).contains { candidates.admits($0, index) } }
            .map { stepName[answerOf[$0]] ?? "default" }
        return finish(named, sequence: Set(steps).count > 1 ? steps : nil, folder: folder, contract: contract)
    }

    /// What `when` rules may be made of for one contract's requests: each request's conditions,
    /// found once, and which requests hold each value (a capture may hold thousands of pages).
    struct RuleCandidates {
        /// Each request as `RequestMatch.admits` reads it (not the whole `Observed`, which every
        /// look would copy).
        let requests: [(arguments: [QueryArgument], body: IncomingRequest.Body, contentType: String?)]
        let conditions: [[Condition]]
        /// The answer (its index) each request got, and how many requests got each.
        let answerOf: [Int]
        let answerCounts: [Int: Int]
        /// By `Condition.key`: the requests that may keep the condition (every one that does).
        let holders: [String: [Int]]
        /// A body key that usually says what a request is for (`intent`): preferred on a tie.
        let discriminator: String?

        init(_ entries: [Observed], answerOf: [Int], scrubber: SecretScrubber, discriminator: String?) {
            requests = entries.map { ($0.arguments, $0.body, $0.contentType) }
            conditions = entries.map { TrafficInference.conditions(of: $0, scrubber: scrubber) }
            self.answerOf = answerOf
            answerCounts = answerOf.reduce(into: [:]) { $0[$1, default: 0] += 1 }
            var holders: [String: [Int]] = [:]
            for (index, found) in conditions.enumerated() {
                for condition in found { holders[condition.key, default: []].append(index) }
            }
            self.holders = holders
            self.discriminator = discriminator
        }

        func admits(_ match: RequestMatch, _ index: Int) -> Bool {
            match.admits(query: requests[index].arguments, body: requests[index].body, contentType: requests[index].contentType)
        }

        /// The fewest conditions every request of `group` keeps and no request with another answer
        /// than `answer` keeps together; nil when they cannot tell the group apart. Each step takes
        /// the condition that keeps out the most requests left, the discriminator first on a tie.
        func rule(for group: [Int], answer: Int) -> RequestMatch? {
            let othersCount = answerOf.count - (answerCounts[answer] ?? 0)
            guard let first = group.first, othersCount > 0 else { return nil }
            var shared = conditions[first].filter { condition in
                let match = condition.match
                return group.allSatisfy { admits(match, $0) }
            }
            if let discriminator, let index = shared.firstIndex(where: { if case .body(discriminator, _) = $0 { true } else { false } }) {
                shared.insert(shared.remove(at: index), at: 0)
            }
            // The first condition against every other request: only those holding its value can keep it.
            let kept = shared.map { condition in
                let match = condition.match
                return (holders[condition.key] ?? []).filter { answerOf[$0] != answer && admits(match, $0) }
            }
            guard let best = kept.indices.min(by: { kept[$0].count < kept[$1].count || (kept[$0].count == kept[$1].count && $0 < $1) }),
                kept[best].count < othersCount
            else { return nil }
            var chosen = RequestMatch()
            var left = kept[best]
            chosen.add(shared.remove(at: best))
            while !left.isEmpty {
                let excluded = shared.map { condition in
                    let match = condition.match
                    return left.count(where: { !admits(match, $0) })
                }
                guard let next = excluded.indices.max(by: { excluded[$0] < excluded[$1] || (excluded[$0] == excluded[$1] && $0 > $1) }), excluded[next] > 0 else {
                    return nil
                }
                chosen.add(shared.remove(at: next))
                left = left.filter { admits(chosen, $0) }
            }
            return chosen
        }
    }

    /// One value a request carries that a `when` may name: never a credential's key nor a
    /// value holding a secret.
    enum Condition: Equatable {
        case query(String, String)
        case body(String, JSONValue)
        case contentType(String)

        /// Equal for a condition and every request that may keep it: a form field's text and a
        /// JSON value of the same spelling share one (`RequestMatch.admits` then decides).
        var key: String {
            switch self {
            case .query(let name, let value): "q\u{0}\(name)\u{0}\(value)"
            case .body(let key, let value): "b\u{0}\(key)\u{0}\(value.stringValue ?? value.serialized)"
            case .contentType(let type): "t\u{0}\(type)"
            }
        }

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
            // The first field of a name is the one a rule reads.
            for (offset, field) in fields.enumerated() where !fields[..<offset].contains(where: { $0.name == field.name }) {
                if usable(field.name, field.value ?? "") { found.append(.body(field.name, .string(field.value ?? ""))) }
            }
        default: break
        }
        if let type = entry.contentType.map(MediaType.essence), !type.isEmpty { found.append(.contentType(type)) }
        return found
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

extension RequestMatch {
    /// The condition as one more rule.
    fileprivate mutating func add(_ condition: TrafficInference.Condition) {
        switch condition {
        case .query(let name, let value): query.append((name, value))
        case .body(let key, let value): json.append((key, value))
        case .contentType(let type): contentType = type
        }
    }
}
