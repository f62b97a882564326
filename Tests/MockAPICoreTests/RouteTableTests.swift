import MockAPITestSupport
import Testing

@testable import MockAPICore

struct RouteTableTests {
    private func table(_ routes: [(RequestMethod, String)]) throws -> ([Contract], RouteTable) {
        let contracts = try routes.enumerated().map { index, route in
            try Contract.make(name: "c\(index)", method: route.0, path: route.1)
        }
        return (contracts, RouteTable(contracts: contracts))
    }

    @Test func literalBeatsIntParameterWhichBeatsStringParameter() throws {
        let (_, table) = try table([(.GET, "/v1/users/{slug}"), (.GET, "/v1/users/{id:int}"), (.GET, "/v1/users/self")])
        #expect(table.match(method: .GET, path: "/v1/users/self") == .found(contract: 2))
        #expect(table.match(method: .GET, path: "/v1/users/42") == .found(contract: 1))
        #expect(table.match(method: .GET, path: "/v1/users/-7") == .found(contract: 1))
        #expect(table.match(method: .GET, path: "/v1/users/sam") == .found(contract: 0))
    }

    @Test func intParametersTakeEveryInt64Including19DigitIds() throws {
        let (_, table) = try table([(.GET, "/v1/items/{id:int}"), (.GET, "/v1/items/{slug}")])
        for id in ["1234567890123456789", "9223372036854775807", "-9223372036854775808", "0", "-1"] {
            #expect(table.match(method: .GET, path: "/v1/items/\(id)") == .found(contract: 0), "\(id)")
        }
        for beyond in ["9223372036854775808", "-9223372036854775809", "12345678901234567890", "99999999999999999999"] {
            #expect(table.match(method: .GET, path: "/v1/items/\(beyond)") == .found(contract: 1), "\(beyond) is past Int64: a string")
        }
    }

    /// A resource by its ids (the integer-shape table's case), beside a string parameter and a
    /// literal at the same segments; a literal that is itself an integer still beats `{n:int}`.
    @Test func integerShapedPathsAnswerAsTheWalkDoes() throws {
        let (_, table) = try table([
            (.GET, "/v1/projects/{projectId:int}/backers/{backerId:int}"), (.PUT, "/v1/projects/{projectId:int}/backers/{backerId:int}"),
            (.GET, "/v1/projects/{slug}/backers/{backerId:int}"), (.GET, "/v1/projects/{id:int}/star"), (.GET, "/v1/projects/self/backers/{id:int}"),
        ])
        #expect(table.match(method: .GET, path: "/v1/projects/1/backers/2") == .found(contract: 0))
        #expect(table.match(method: .PUT, path: "/v1/projects/-1/backers/9223372036854775807") == .found(contract: 1))
        #expect(table.match(method: .GET, path: "/v1/projects/abc/backers/2") == .found(contract: 2))
        #expect(table.match(method: .GET, path: "/v1/projects/9223372036854775808/backers/2") == .found(contract: 2), "past Int64: a slug")
        #expect(table.match(method: .GET, path: "/v1/projects/self/backers/2") == .found(contract: 4))
        #expect(table.match(method: .GET, path: "/v1/projects/1/backers/x") == .notFound)
        #expect(table.match(method: .HEAD, path: "/v1/projects/1/backers/2") == .found(contract: 0))
        #expect(table.match(method: .DELETE, path: "/v1/projects/1/backers/2") == .methodNotAllowed(allowed: [.GET, .HEAD, .PUT]))
        #expect(table.match(method: .GET, path: "/v1/projects/007/star") == .found(contract: 3))
        #expect(table.match(method: .GET, path: "/v1/projects/1/star/") == .notFound)
        let (_, years) = try self.table([(.GET, "/v1/{year:int}/report"), (.GET, "/v1/2024/{name}")])
        #expect(years.match(method: .GET, path: "/v1/2024/report") == .found(contract: 1), "the literal 2024 first, then {name}")
        #expect(years.match(method: .GET, path: "/v1/2025/report") == .found(contract: 0))
    }

    /// A path ending in a digit skips the literal table when no literal path ends in one
    /// (`ExactPaths.mayHold`); where one does (`/v2`, `/oauth2/token2`), it is still found there,
    /// and an id path still answers from the shapes or the walk.
    @Test func aPathEndingInADigitIsFoundWhereverItLies() throws {
        let (_, ids) = try table([(.GET, "/items/{id:int}"), (.GET, "/items/{id:int}/{version}"), (.GET, "/items/latest")])
        #expect(ids.match(method: .GET, path: "/items/7") == .found(contract: 0))
        #expect(ids.match(method: .GET, path: "/items/7/v2") == .found(contract: 1), "walked: a string parameter ending in a digit")
        #expect(ids.match(method: .GET, path: "/items/latest") == .found(contract: 2))
        #expect(ids.match(method: .GET, path: "/items/latest2") == .notFound)
        let (_, versions) = try table([(.GET, "/v2"), (.GET, "/oauth2/token2"), (.GET, "/items/{id:int}"), (.GET, "/{version}")])
        #expect(versions.match(method: .GET, path: "/v2") == .found(contract: 0))
        #expect(versions.match(method: .GET, path: "/oauth2/token2") == .found(contract: 1))
        #expect(versions.match(method: .GET, path: "/items/12") == .found(contract: 2))
        #expect(versions.match(method: .GET, path: "/v3") == .found(contract: 3))
    }

    /// The shape a lookup writes a word at a time, against the plain rule: split at `/`, each
    /// segment of 1 to 18 digits one NUL, joined again. Random paths of up to 70 bytes put
    /// slashes, digits and signs at every offset of a word.
    @Test func integerShapesAreWrittenAsThePlainRuleSays() {
        var random = SplitMix64(seed: 7)
        let alphabet = Array("//0123456789-ab".utf8) + [0x80, 0xFF]
        for _ in 0..<20_000 {
            // As a request's path is: a slash first.
            let path = [UInt8(ascii: "/")] + (0..<Int(random.next() % 70)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let plain = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { segment in
                (1...18).contains(segment.count) && segment.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? [0] : Array(segment)
            }
            let expected = Array(plain.joined(separator: [UInt8(ascii: "/")]))
            #expect(IntShapedPaths.shape(of: path) == expected, "\(path)")
        }
    }

    @Test func emptySegmentsMatchOnlyEmptySegments() throws {
        // A real client builds /v1/users//self/queue_export_data (an empty user id).
        let (_, table) = try table([(.POST, "/v1/users//self/queue_export_data"), (.GET, "/v1/users/{id}/self")])
        #expect(table.match(method: .POST, path: "/v1/users//self/queue_export_data") == .found(contract: 0))
        #expect(table.match(method: .POST, path: "/v1/users/self/queue_export_data") == .notFound)
        #expect(table.match(method: .GET, path: "/v1/users//self") == .notFound, "{id} never matches an empty segment")
    }

    @Test func pathParameterTakesOneOrMoreSegmentsAfterEveryOtherKind() throws {
        let (_, table) = try table([
            (.GET, "/v1/categories/{slug:path}"),
            (.GET, "/v1/categories/{slug:path}/projects"),
            (.GET, "/v1/categories/{id:int}"),
            (.GET, "/v1/categories/featured"),
        ])
        #expect(table.match(method: .GET, path: "/v1/categories/art/illustration") == .found(contract: 0))
        #expect(table.match(method: .GET, path: "/v1/categories/art") == .found(contract: 0))
        #expect(table.match(method: .GET, path: "/v1/categories/art/illustration/projects") == .found(contract: 1))
        #expect(table.match(method: .GET, path: "/v1/categories/7") == .found(contract: 2))
        #expect(table.match(method: .GET, path: "/v1/categories/featured") == .found(contract: 3))
        #expect(table.match(method: .GET, path: "/v1/categories") == .notFound)
        #expect(table.match(method: .DELETE, path: "/v1/categories/a/b/projects") == .methodNotAllowed(allowed: [.GET, .HEAD]))
        #expect(
            NearestContracts.explain(path: "/v1/categories/art/illustration/project", template: try PathTemplate("/v1/categories/{slug:path}/projects"))
                == #"segment 5 is "project", /v1/categories/{slug:path}/projects expects "projects""#)
        #expect(
            NearestContracts.explain(path: "/v1/categories/art/illustration/projects", template: try PathTemplate("/v1/categories/{slug:path}/projects"))
                == nil, "a path the template matches has nothing to explain")
    }

    @Test func backtracksFromALiteralThatLeadsNowhere() throws {
        let (_, table) = try table([(.GET, "/a/self/edit"), (.GET, "/a/{id}/view")])
        #expect(table.match(method: .GET, path: "/a/self/view") == .found(contract: 1))
    }

    /// `FrozenTrie.match` walks straight down and runs the backtracking search only when the walk
    /// passed over a child that could also match; on random tables it must agree with the search.
    /// So must the exact-path and integer-shape tables built from the walk's answers: without a
    /// literal `1` among the templates the shape table is in use (with one, it stays empty: the
    /// third set makes `/1/{x}` beside `/{n:int}/a` likely, where the literal wins for `/1/a`).
    @Test(arguments: [
        ["a", "b", "1", "", "{x}", "{n:int}", "{p:path}"], ["a", "b", "{n:int}", "", "{x}", "{n:int}", "{p:path}"],
        ["a", "1", "{n:int}", "{x}", "a", "1", "{n:int}"],
    ])
    func theStraightWalkAgreesWithTheBacktrackingSearch(templateSegments: [String]) throws {
        var random = SplitMix64(seed: 20)
        let pathSegments = ["a", "b", "1", "-2", "c", "", "99999999999999999999", "9223372036854775808", "007"]
        var compared = 0
        for _ in 0..<300 {
            var contracts: [Contract] = []
            for index in 0..<6 {
                let depth = Int(random.next() % 4) + 1
                let template = "/" + (0..<depth).map { _ in templateSegments[Int(random.next() % 7)] }.joined(separator: "/")
                let method: RequestMethod = random.next() % 2 == 0 ? .GET : .POST
                guard let contract = try? Contract.make(name: "c\(index)", method: method, path: template) else { continue }
                contracts.append(contract)
            }
            var builder = TrieBuilder()
            for (index, contract) in contracts.enumerated() { builder.insert(contract.request, index: index, contracts: contracts) }
            let trie = FrozenTrie(builder)
            for _ in 0..<40 {
                let depth = Int(random.next() % 6)
                var path = Array(("/" + (0..<depth).map { _ in pathSegments[Int(random.next() % UInt64(pathSegments.count))] }.joined(separator: "/")).utf8)
                path.withUnsafeMutableBufferPointer { bytes in
                    let path = UnsafeBufferPointer(bytes)
                    let first = path.count > 1 ? 1 : nil
                    for method in [RequestMethod.GET, .POST] {
                        let searched = trie.search(node: 0, segmentStart: first, path: path, method: method)
                        #expect(trie.match(segmentStart: first, path: path, method: method) == searched, "\(String(decoding: path, as: UTF8.self))")
                        // The exact-path and shape tables, built from the walk's answers, say the same.
                        #expect(trie.match(path: path, method: method) == searched, "tables: \(String(decoding: path, as: UTF8.self))")
                        if searched != nil { compared += 1 }
                    }
                }
            }
        }
        #expect(compared > 800, "enough paths found a contract for the comparison to mean something")
    }

    @Test func wrongMethodListsTheAllowedOnes() throws {
        let (_, table) = try table([(.GET, "/x/{id:int}"), (.DELETE, "/x/{id:int}")])
        #expect(table.match(method: .POST, path: "/x/1") == .methodNotAllowed(allowed: [.GET, .HEAD, .DELETE]))
    }

    @Test func headFallsBackToGet() throws {
        let (_, table) = try table([(.GET, "/x")])
        #expect(table.match(method: .HEAD, path: "/x") == .found(contract: 0))
    }

    @Test func emptyAndTrailingSegmentsDoNotMatch() throws {
        let (_, table) = try table([(.GET, "/x/{id}"), (.GET, "/")])
        #expect(table.match(method: .GET, path: "/x/") == .notFound)
        #expect(table.match(method: .GET, path: "/x//") == .notFound)
        #expect(table.match(method: .GET, path: "/") == .found(contract: 1))
        #expect(table.match(method: .GET, path: "x") == .notFound)
    }

    @Test func manyLiteralSiblingsAreEachFoundAndMissesStayMisses() throws {
        // Enough siblings of mixed lengths that the sorted-edge binary search has real work.
        let names = (0..<300).map { "r\($0)" + String(repeating: "x", count: $0 % 7) }
        let (_, table) = try table(names.map { (.GET, "/v1/\($0)/items") } + [(.GET, "/v1/{other}/items")])
        for (index, name) in names.enumerated() {
            #expect(table.match(method: .GET, path: "/v1/\(name)/items") == .found(contract: index))
        }
        #expect(table.match(method: .GET, path: "/v1/r1xx/items") == .found(contract: names.count))
        #expect(table.match(method: .GET, path: "/v1/r1/other") == .notFound)
        #expect(table.match(method: .PUT, path: "/v1/r5xxxxx/items") == .methodNotAllowed(allowed: [.GET, .HEAD]))
    }

    @Test func literalsThatDifferOnlyInUnicodeNormalizationAreTwoRoutes() throws {
        // `é` precomposed and `e` + a combining accent are equal Strings but different bytes;
        // requests are matched by bytes, with few siblings (scanned) and many (indexed).
        for siblings in [0, 12] {
            let others: [(RequestMethod, String)] = (0..<siblings).map { (.GET, "/v1/s\($0)/x") }
            let (_, table) = try table(others + [(.GET, "/v1/caf\u{E9}/x"), (.GET, "/v1/cafe\u{301}/x")])
            #expect(table.match(method: .GET, path: "/v1/caf\u{E9}/x") == .found(contract: siblings), "\(siblings) siblings")
            #expect(table.match(method: .GET, path: "/v1/cafe\u{301}/x") == .found(contract: siblings + 1), "\(siblings) siblings")
        }
    }

    @Test func aLiteralMatchesOnlyByteForByteAtEveryLength() throws {
        // Keys are compared a word at a time with overlapping tails: a difference at any byte,
        // of keys from 1 to 20 bytes long, must still be a miss; as the only child (tried in
        // place) and among many siblings (hashed, where a changed key may land in the same slot).
        for length in 1...20 {
            let key = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            for siblings in [0, 11] {
                let others = (0..<siblings).map { "other\($0)" }
                let (_, table) = try table(([key] + others).map { (.GET, "/v1/\($0)/end") })
                #expect(table.match(method: .GET, path: "/v1/\(key)/end") == .found(contract: 0), "\(key)")
                for position in 0..<length {
                    var bytes = Array(key.utf8)
                    bytes[position] = UInt8(ascii: "Z")
                    let changed = String(decoding: bytes, as: UTF8.self)
                    #expect(table.match(method: .GET, path: "/v1/\(changed)/end") == .notFound, "\(changed)")
                }
            }
        }
    }

    /// Whole literal paths are answered from one hash table (`ExactPaths`), hashed from their
    /// first and last words: every length from `/` up, every byte changed, and a method that does
    /// not end there must each miss it and fall to the walk.
    @Test func exactPathsMatchWholePathsByteForByteAndMethod() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var paths = ["/"]
        for length in 1...20 { paths.append("/" + String(letters[0..<length])) }
        let routes: [(RequestMethod, String)] = paths.map { (RequestMethod.GET, $0) } + [(.POST, "/abcdefghij"), (.GET, "/{id}/x")]
        let (_, table) = try table(routes)
        for (index, path) in paths.enumerated() {
            #expect(table.match(method: .GET, path: path) == .found(contract: index), "\(path)")
            #expect(table.match(method: .HEAD, path: path) == .found(contract: index), "HEAD \(path) is served from GET")
            let allowed: [RequestMethod] = path == "/abcdefghij" ? [.GET, .HEAD, .POST] : [.GET, .HEAD]
            #expect(table.match(method: .PUT, path: path) == .methodNotAllowed(allowed: allowed))
            for position in 1..<path.count {
                var bytes = Array(path.utf8)
                bytes[position] = UInt8(ascii: "Z")
                #expect(table.match(method: .GET, path: String(decoding: bytes, as: UTF8.self)) == .notFound, "\(path) changed at \(position)")
            }
        }
        #expect(table.match(method: .POST, path: "/abcdefghij") == .found(contract: paths.count))
        #expect(table.match(method: .GET, path: "/ab/x") == .found(contract: paths.count + 1), "a literal path's prefix still reaches a parameter")
        #expect(table.match(method: .GET, path: "/a/") == .notFound)
    }

    @Test func sameShapeSameMethodIsAConflict() throws {
        let (_, table) = try table([(.GET, "/x/{a}"), (.GET, "/x/{b}"), (.PUT, "/x/{c}"), (.GET, "/x/{d:int}")])
        #expect(table.conflicts == [RouteTable.Conflict(first: 0, second: 1)])
    }

    @Test func templateParsingRejectsBadTemplates() {
        #expect(throws: PathTemplate.ParseError.self) { try PathTemplate("v1/x") }
        #expect(throws: PathTemplate.ParseError.self) { try PathTemplate("/v1/{id:uuid}") }
        #expect(throws: PathTemplate.ParseError.self) { try PathTemplate("/v1/{id}/{id}") }
        #expect(throws: PathTemplate.ParseError.self) { try PathTemplate("/v1/x?y=1") }
        #expect(throws: PathTemplate.ParseError.self) { try PathTemplate("/v1/{open") }
    }

    @Test func nearestContractsExplainTheFirstDifference() throws {
        let (contracts, _) = try table([(.GET, "/v1/projects/{id:int}/backers/{backerId:int}"), (.GET, "/v1/categories")])
        let nearest = NearestContracts.find(method: .GET, path: "/v1/projects/1/backer/2", in: contracts)
        #expect(nearest.first == .init(contract: 0, reason: "segment 4 is \"backer\", /v1/projects/{id:int}/backers/{backerId:int} expects \"backers\""))
        let notInt = NearestContracts.find(method: .GET, path: "/v1/projects/abc/backers/2", in: contracts)
        #expect(notInt.first?.reason == "segment 3 is \"abc\", not an int for {id:int} in /v1/projects/{id:int}/backers/{backerId:int}")
    }
}

extension Contract {
    /// A contract with a default 200 response and whatever request expectation the test needs.
    static func make(
        name: String = "c", method: RequestMethod = .GET, path: String = "/x",
        query: [QueryExpectation] = [], headers: [HeaderExpectation] = [],
        json: [JSONKeyExpectation]? = nil, multipart: [PartExpectation]? = nil,
        responses: [ResponseDefinition] = [ResponseDefinition(name: "default", status: 200, body: [], contentType: nil)],
        sequence: [Int]? = nil
    ) throws -> Contract {
        Contract(
            name: name, file: "\(name).json",
            request: RequestExpectation(method: method, path: try PathTemplate(path), query: query, headers: headers, json: json, multipart: multipart),
            responses: responses, sequence: sequence)
    }
}
