import Foundation
package import MockAPICore

/// Contracts and fixtures learnt from recorded traffic: what `import har` and `record` share.
///
/// Requests are grouped by method and path template (`/v1/posts/7` → `/v1/posts/{id:int}`). A
/// group becomes one contract whose checks are what its requests had in common, and whose
/// responses are the distinct answers, chosen so that every recorded request, sent again to the
/// mock, gets the answer it got then:
/// - a recorded id whose answers differ from the first id's gets a contract on its literal path
///   (`/v1/posts/99` → 404), which beats the template;
/// - requests on one path whose JSON bodies differ in a discriminating key and got different
///   answers become one contract per value with a `match` (login and signup by `intent`), or one
///   contract with responses chosen by `when.json` when their bodies have the same keys;
/// - answers told apart by the query, a body key or a form field (never a credential), or the
///   body's type (JSON, form, multipart), get a `when` on it (`page_2`);
/// - answers nothing but time told apart (a poll, a retried create, a login told apart by its
///   password) get a `sequence` in the recorded order;
/// - the hosts the capture talked to become `{{baseURL}}` in fixtures.
package struct TrafficInference {
    /// Names the input in warnings: `capture.har`, `mockapi record`.
    package var source: String
    /// Where the mock stands in, when it is more than a host: `record --target https://host/api`
    /// (links to `https://host/api/v1/x` become `{{baseURL}}/v1/x`).
    package var baseURLs: [String]
    /// Which request values are credentials: never written in clear, never a rule or a name.
    package var credentials: CredentialKeys

    package init(source: String, baseURLs: [String] = [], credentials: CredentialKeys = .standard) {
        self.source = source
        self.baseURLs = baseURLs
        self.credentials = credentials
    }

    /// One exchange as the inference reads it: parsed once.
    struct Observed {
        var exchange: RecordedExchange
        var method: RequestMethod
        var path: String
        var query: [(name: String, value: String)]
        var json: JSONValue?
        var answer: Answer
        /// The query, the body and its `Content-Type` as the server reads them: what a `when`
        /// learnt from this request is checked against (`RequestMatch.admits`), as the mock will.
        var arguments: [QueryArgument]
        var body: IncomingRequest.Body
        var contentType: String?
    }

    /// An answer as its fixture will hold it (hosts already `{{baseURL}}`).
    struct Answer: Equatable {
        var status: Int
        var fixture: [UInt8]
        var fileExtension: String
        /// The parsed JSON body, when it is JSON.
        var json: JSONValue?
        /// What the contract's response writes as its `headers` (the first such answer's).
        var headers: [HTTPField] = []

        /// Same status and body, and the same headers among those that say what the answer is
        /// (`identifyingHeaders`: a redirect's `Location`), not those that change every time.
        static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.status == rhs.status && lhs.fixture == rhs.fixture && lhs.identity == rhs.identity
        }

        /// What `==` compares, as a dictionary key: a capture may hold thousands of answers.
        var key: Key { Key(status: status, fixture: fixture, identity: identity) }

        struct Key: Hashable {
            var status: Int
            var fixture: [UInt8]
            var identity: [String]
        }

        private var identity: [String] {
            headers.filter { TrafficInference.identifyingHeaders.contains($0.name.lowercased()) }.map { "\($0.name.lowercased()): \($0.value)" }
        }
    }

    /// Requests that become one contract.
    struct Unit {
        var name: String
        var path: String
        var template: PathGeneralizer.Template
        var entries: [Observed]
        var match: RequestMatch?
    }

    /// `exchanges` must have a known method and an answer (the caller skips and warns about others).
    package func infer(_ exchanges: [RecordedExchange]) -> ImportedSet {
        var result = ImportedSet()
        let rewriter = BaseURLRewriter(urls: exchanges.map(\.url), prefixes: baseURLs)
        let scrubber = SecretScrubber(credentials: credentials, exchanges: exchanges)
        var groups: [(method: RequestMethod, template: PathGeneralizer.Template, entries: [Observed])] = []
        for exchange in exchanges {
            guard let method = RequestMethod(rawValue: exchange.method.uppercased()),
                let components = URLComponents(string: exchange.url)
            else { continue }
            let query = Self.queryItems(components)
            var json: JSONValue?
            if let type = exchange.requestMediaType, type == "application/json" || type.hasSuffix("+json") {
                json = try? JSONParser.parse(exchange.requestBody)
            }
            let observed = Observed(
                exchange: exchange, method: method, path: components.path, query: query, json: json,
                answer: Self.answer(exchange, rewriter: rewriter, scrubber: scrubber),
                arguments: Array((components.percentEncodedQuery ?? "").utf8).withUnsafeBytes(QueryString.arguments),
                body: Self.serverBody(exchange, json: json), contentType: Self.sentContentType(exchange))
            let template = PathGeneralizer.template(forPath: components.path)
            if let index = groups.firstIndex(where: { $0.method == method && $0.template == template }) {
                groups[index].entries.append(observed)
            } else {
                groups.append((method, template, [observed]))
            }
        }
        var names: Set<String> = []
        for group in groups {
            let folder = Naming.folder(forPathSegments: group.template.literals)
            for unit in units(group.method, group.template, group.entries, scrubber: scrubber, names: &names) {
                let (draft, fixtures, warnings) = contract(for: unit, method: group.method, folder: folder, scrubber: scrubber)
                result.contracts.append(draft)
                result.fixtures += fixtures
                result.warnings += warnings
            }
        }
        return result
    }

    /// The group's contracts: the template's, literal paths whose answers differ, and match splits.
    private func units(
        _ method: RequestMethod, _ template: PathGeneralizer.Template, _ entries: [Observed], scrubber: SecretScrubber,
        names: inout Set<String>
    ) -> [Unit] {
        let baseName = Naming.snakeCase(([method.rawValue] + template.words).joined(separator: "_"))
        var byPath: [(path: String, entries: [Observed])] = []
        for entry in entries {
            if let index = byPath.firstIndex(where: { $0.path == entry.path }) { byPath[index].entries.append(entry) } else { byPath.append((entry.path, [entry])) }
        }
        func answers(_ entries: [Observed]) -> [Answer] {
            entries.reduce(into: []) { found, entry in if !found.contains(entry.answer) { found.append(entry.answer) } }
        }
        var main = Unit(name: "", path: template.path, template: template, entries: [])
        var literal: [Unit] = []
        let first = byPath.first.map { answers($0.entries) } ?? []
        for (path, pathEntries) in byPath {
            let literalPossible = template.hasParameters && !path.contains("{") && !path.contains("}")
            if main.entries.isEmpty || !literalPossible || answers(pathEntries) == first {
                main.entries += pathEntries
            } else {
                let words = [method.rawValue] + path.split(separator: "/").map(String.init)
                literal.append(
                    Unit(
                        name: Naming.snakeCase(words.joined(separator: "_")), path: path,
                        template: PathGeneralizer.template(forPath: path), entries: pathEntries))
            }
        }
        main.name = baseName
        var result: [Unit] = []
        for unit in [main] + literal {
            for var split in discriminated(unit, scrubber: scrubber) ?? [unit] {
                split.name = Naming.unique(split.name, in: &names)
                result.append(split)
            }
        }
        return result
    }

    /// Keys that usually say what a request is for, preferred when several keys could tell requests apart.
    static let discriminatorNames = ["intent", "type", "action", "kind", "mode", "operation", "op", "grant_type", "provider"]

    /// A top-level JSON key every body carries, whose values split the requests into groups that
    /// got different answers; nil when none does. Never a credential: its value would be written
    /// into the rule and the names.
    static func discriminator(_ entries: [Observed], scrubber: SecretScrubber) -> String? {
        let objects = entries.compactMap { $0.json?.objectValue }
        guard objects.count == entries.count, objects.count >= 2 else { return nil }
        var candidates: [(key: String, values: Int)] = []
        for key in objects[0].keys where !scrubber.credentials.isCredential(key) {
            let values = objects.compactMap { object -> JSONValue? in
                guard let value = object[key] else { return nil }
                switch value {
                case .string, .int, .bool: return value
                default: return nil
                }
            }
            guard values.count == objects.count else { continue }
            var distinct: [JSONValue] = []
            for value in values where !distinct.contains(value) { distinct.append(value) }
            guard distinct.count >= 2, !distinct.contains(where: scrubber.holdsSecret) else { continue }
            // A free-text value (a post's text, an email) tells nothing apart: a discriminator is a
            // known name, or a token that came back in more than one request.
            let tokenLike = distinct.allSatisfy { value in
                guard let text = value.stringValue else { return true }
                return !text.isEmpty && text.count <= 32 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            }
            guard discriminatorNames.contains(key.lowercased()) || (tokenLike && distinct.count < values.count) else { continue }
            // The values must decide the answer: no answer is shared by two values.
            let answerSets = distinct.map { value in entries.filter { $0.json?.objectValue?[key] == value }.map(\.answer) }
            let disjoint = answerSets.indices.allSatisfy { i in
                answerSets.indices.allSatisfy { j in i == j || !answerSets[i].contains { answerSets[j].contains($0) } }
            }
            if disjoint { candidates.append((key, distinct.count)) }
        }
        return candidates.min { a, b in
            let pa = discriminatorNames.firstIndex(of: a.key.lowercased()) ?? Int.max
            let pb = discriminatorNames.firstIndex(of: b.key.lowercased()) ?? Int.max
            return pa != pb ? pa < pb : a.values < b.values
        }?.key
    }

    /// One unit per value of the discriminating key, each with a `match`, when the requests for
    /// different values carry different keys; nil to keep the unit whole.
    private func discriminated(_ unit: Unit, scrubber: SecretScrubber) -> [Unit]? {
        guard let key = Self.discriminator(unit.entries, scrubber: scrubber) else { return nil }
        var values: [(value: JSONValue, entries: [Observed])] = []
        for entry in unit.entries {
            let value = entry.json!.objectValue![key]!
            if let index = values.firstIndex(where: { $0.value == value }) { values[index].entries.append(entry) } else { values.append((value, [entry])) }
        }
        let keySets = values.map { Set($0.entries.flatMap { $0.json?.objectValue?.keys ?? [] }) }
        guard Set(keySets).count > 1 else { return nil }
        return values.map { value, entries in
            let suffix = Naming.snakeCase(value.stringValue ?? value.serialized)
            return Unit(
                name: "\(unit.name)_\(suffix)", path: unit.path, template: unit.template, entries: entries,
                match: RequestMatch(json: [(key, value)]))
        }
    }

    /// The draft, its fixtures and warnings for one unit.
    private func contract(for unit: Unit, method: RequestMethod, folder: String, scrubber: SecretScrubber) -> (ContractDraft, [ImportedSet.Fixture], [String]) {
        var draft = ContractDraft(name: unit.name, folder: folder, method: method, path: unit.path)
        let location = "\(source): \(method.rawValue) \(unit.path)"
        var warnings: [String] = []
        draft.query = Self.queryExpectations(unit.entries)
        draft.headers = Self.headerExpectations(unit.entries)
        if method != .GET, method != .HEAD {
            var found: [String] = []
            (draft.json, draft.multipart) = Self.bodyExpectations(unit.entries, warnings: &found)
            warnings += found.map { "\(location): \($0)" }
        }
        draft.match = unit.match
        let (responses, sequence, fixtures) = Self.responses(for: unit.entries, folder: folder, contract: unit.name, scrubber: scrubber)
        draft.responses = responses
        draft.sequence = sequence
        draft.example = Self.example(unit.entries[0], path: unit.path, checkedHeaders: draft.headers, scrubber: scrubber)
        return (draft, fixtures, warnings)
    }
}
