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

    /// The responses (`default` first unless a sequence orders them), the sequence for a poll,
    /// and the fixtures they reference.
    static func responses(for entries: [Observed], folder: String, contract: String, scrubber: SecretScrubber)
        -> ([ContractDraft.Response], [String]?, [ImportedSet.Fixture])
    {
        var answers: [(answer: Answer, entry: Observed)] = []
        for entry in entries where !answers.contains(where: { $0.answer == entry.answer }) { answers.append((entry.answer, entry)) }
        var taken: Set<String> = ["default"]
        var named: [(answer: Answer, response: ContractDraft.Response)] = []

        if answers.count > 1, Set(entries.map(\.requestKey)).count == 1 {
            // The same request answered differently over time: served in turn, as recorded.
            for (offset, (answer, _)) in answers.enumerated() {
                let name = offset == 0 ? "default" : Naming.unique(stateName(answer) ?? Naming.responseName(forStatus: answer.status), in: &taken)
                named.append((answer, ContractDraft.Response(name: name, status: answer.status)))
            }
            let sequence = entries.map { entry in named.first { $0.answer == entry.answer }!.response.name }
            return finish(named, sequence: sequence, folder: folder, contract: contract)
        }

        let defaultIndex = answers.firstIndex { (200..<300).contains($0.answer.status) } ?? 0
        let ordered = [answers[defaultIndex]] + answers.enumerated().filter { $0.offset != defaultIndex }.map(\.element)
        let discriminator = discriminator(entries, scrubber: scrubber)
        var whens: [String] = []
        // Answers only a credential told apart: replayed in the recorded order instead (below).
        var toldApartByCredential = false
        for (offset, (answer, entry)) in ordered.enumerated() {
            var response = ContractDraft.Response(name: "default", status: answer.status)
            if offset > 0 {
                let first = ordered[0].entry
                let allDiffering = entry.query.filter { item in
                    !item.name.hasSuffix("[]") && !first.query.contains { $0.name == item.name && $0.value == item.value }
                }
                // A credential is never a rule: its value would be written in clear.
                let differing = allDiffering.filter { !scrubber.credentials.isCredential($0.name) && !scrubber.holdsSecret($0.value) }
                if differing.isEmpty, !allDiffering.isEmpty { toldApartByCredential = true }
                var base = Naming.responseName(forStatus: answer.status)
                if !differing.isEmpty {
                    // Repeated keys (`page=2&page=2`) are one condition.
                    var unique: [(name: String, value: String)] = []
                    for item in differing where !unique.contains(where: { $0.name == item.name }) { unique.append(item) }
                    let key = unique.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                    if !whens.contains(key) {
                        response.when = RequestMatch(query: unique)
                        whens.append(key)
                    }
                    if unique.count == 1, answer.status == ordered[0].answer.status {
                        base = Naming.snakeCase("\(unique[0].name)_\(unique[0].value)")
                    }
                } else if let key = discriminator ?? differingScalarKey(entry.json, from: first.json, scrubber: scrubber),
                    let value = entry.json?.objectValue?[key]
                {
                    response.when = RequestMatch(json: [(key, value)])
                    if discriminator != nil { base = Naming.snakeCase("\(key)_\(value.stringValue ?? value.serialized)") }
                } else if differingScalarKey(entry.json, from: first.json, scrubber: nil) != nil
                    || differsOnlyInCredentialFields(entry.exchange, from: first.exchange, scrubber: scrubber)
                {
                    toldApartByCredential = true
                }
                response.name = Naming.unique(base, in: &taken)
            }
            named.append((answer, response))
        }
        var sequence: [String]?
        if toldApartByCredential {
            // `when` rules are tried first and do not advance a sequence: the sequence lists, in
            // order, the answers of the requests no rule picks.
            let steps = entries.compactMap { entry -> String? in
                guard let response = named.first(where: { $0.answer == entry.answer })?.response, response.when == nil else { return nil }
                return response.name
            }
            if Set(steps).count > 1 { sequence = steps }
        }
        return finish(named, sequence: sequence, folder: folder, contract: contract)
    }

    /// Whether two form bodies differ, and only in credential fields (a failed form login).
    private static func differsOnlyInCredentialFields(_ exchange: RecordedExchange, from other: RecordedExchange, scrubber: SecretScrubber) -> Bool {
        guard exchange.requestMediaType == MediaType.form, other.requestMediaType == MediaType.form else { return false }
        let fields = SecretScrubber.formFields(exchange.requestBody), others = SecretScrubber.formFields(other.requestBody)
        let differing = Set(fields.filter { field in !others.contains { $0 == field } }.map(\.0))
            .union(others.filter { field in !fields.contains { $0 == field } }.map(\.0))
        return !differing.isEmpty && differing.allSatisfy(scrubber.credentials.isCredential)
    }

    /// The first top-level string, number or bool the body has with another value than `other`'s;
    /// with a scrubber, never a credential key nor a value holding a secret.
    private static func differingScalarKey(_ body: JSONValue?, from other: JSONValue?, scrubber: SecretScrubber?) -> String? {
        guard let object = body?.objectValue else { return nil }
        return object.members.first { key, value in
            if let scrubber, scrubber.credentials.isCredential(key) || scrubber.holdsSecret(value) { return false }
            switch value {
            case .string, .int, .bool: return other?.objectValue?[key] != value
            default: return false
            }
        }?.key
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
