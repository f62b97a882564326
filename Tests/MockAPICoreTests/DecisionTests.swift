import Foundation
import Testing

@testable import MockAPICore

/// What the responder decides for one request, in process (no sockets): the server only carries
/// these decisions out, so most of its behaviour is pinned here.
struct DecisionTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let bundled = Result {
        try ContractSet.load(
            contracts: repository.appending(path: "contracts"),
            fixtures: repository.appending(path: "fixtures"))
    }

    private func responder(_ configure: (inout ServingPolicy) -> Void = { _ in }) throws -> Responder {
        var policy = ServingPolicy()
        configure(&policy)
        return Responder(set: try Self.bundled.get(), policy: policy)
    }

    /// The whole request, as the server hands it over in its three phases: route, admit, decide.
    private func decide(
        _ responder: Responder, _ method: String, _ path: String, query: [QueryArgument] = [],
        headers: HeaderFields = [("Host", "localhost")], body: [UInt8] = []
    ) -> Decision {
        let pathBytes = Array(path.utf8)
        return pathBytes.withUnsafeBufferPointer { path in
            let head = responder.route(method: RequestMethod(rawValue: method), path: path, headers: headers)
            if case .answer(let decision) = responder.admit(head, headers: headers, scan: headers.headScan()) { return decision }
            return responder.decide(head, method: method, path: path, query: query, headers: headers, bodyBytes: body.count) {
                guard !body.isEmpty else { return .success(.none) }
                guard head.body == .json else { return .success(.other(bytes: body.count)) }
                do throws(JSONParser.Failure) { return .success(.json(try JSONParser.parse(body))) } catch { return .success(.invalidJSON(error)) }
            }
        }
    }

    private func generated(_ decision: Decision) -> GeneratedResponse? {
        if case .generated(let response) = decision.answer { response } else { nil }
    }

    private func names(_ decision: Decision, in responder: Responder) -> (contract: String?, response: String?) {
        let contract = decision.journal?.contract.map { responder.set.contracts[$0] }
        return (contract?.name, decision.journal?.response.flatMap { contract?.responses[$0].name })
    }

    @Test func aPlainGetIsItsPreparedResponseJournaledUnderItsNames() throws {
        let responder = try responder()
        let decision = decide(responder, "GET", "/v1/categories/34")
        guard case .prepared = decision.answer else { Issue.record("\(decision.answer)"); return }
        #expect(decision.timing == .now)
        #expect(decision.headers.isEmpty)
        #expect(names(decision, in: responder) == ("category", "default"))
    }

    @Test func preferChoosesTheResponseAndTimesIt() throws {
        let responder = try responder()
        let delayed = decide(responder, "GET", "/v1/categories/34", headers: [("Host", "localhost"), ("Prefer", "example=not_found, delay=250")])
        #expect(delayed.timing == .after(milliseconds: 250))
        #expect(names(delayed, in: responder) == ("category", "not_found"))
        let broken = decide(responder, "GET", "/v1/categories/34", headers: [("Host", "localhost"), ("Prefer", "fault=reset")])
        #expect(broken.timing == .fault(.reset))
        #expect(names(broken, in: responder) == ("category", "default"), "a fault is journaled against the response it breaks")
    }

    @Test func anUnusablePreferTimingIsA422OnlyOnceTheResponseIsChosen() throws {
        let responder = try responder { $0.maxDelayMilliseconds = 1_000 }
        let tooLong = try #require(generated(decide(responder, "GET", "/v1/categories/34", headers: [("Host", "localhost"), ("Prefer", "delay=5000")])))
        #expect(tooLong.status == 422)
        #expect(tooLong.problem == "header.Prefer: delay=5000: expected milliseconds from 0 to 1000 ms (800), a range (200-800) or lognormal:MEDIAN:SIGMA (sigma 0 to 10)")
        // An unknown example is what the request gets wrong first: it is the one reported.
        let both = try #require(generated(decide(responder, "GET", "/v1/categories/34", headers: [("Host", "localhost"), ("Prefer", "fault=nope; example=gone")])))
        #expect(both.problem?.hasPrefix(#"header.Prefer: contract "category" has no response named "gone""#) == true)
    }

    @Test func theServersDelayAppliesToEveryContractAnswerAndBypassesThePlainTable() throws {
        let responder = try responder { $0.delay = .fixed(40) }
        #expect(decide(responder, "GET", "/v1/categories/34").timing == .after(milliseconds: 40))
        #expect(decide(responder, "GET", "/v1/nowhere").timing == .now, "refusals are not delayed")
    }

    @Test func prefersParsedOnceKeepTheirOldReadings() {
        #expect(Prefer(#"return=minimal, example="not_found""#).selection == .example("not_found"))
        #expect(Prefer("code=abc").selection == .invalidCode("abc"))
        #expect(Prefer("example=, code=404").selection == .code(404), "an empty example= names nothing")
        #expect(Prefer("example=a; example=b").selection == .example("a"), "the first choice wins")
        #expect(Prefer("delay=10, delay=20").delay == .fixed(20), "the last delay wins")
        #expect(Prefer("fault=bogus, delay=10").timingViolation?.message.hasPrefix("unknown fault \"bogus\"") == true)
        #expect(Prefer(nil) == Prefer("return=minimal"))
    }

    @Test func withCORSEveryDecisionOnTheAPICarriesTheCORSHeadersAndNoAdminOneDoes() throws {
        let responder = try responder { $0.cors = true }
        let decisions: [(String, Decision)] = [
            ("prepared", decide(responder, "GET", "/v1/categories/34")),
            ("violation", decide(responder, "GET", "/v1/discover", query: [QueryArgument("page", "x")])),
            ("not found", decide(responder, "GET", "/v1/nowhere")),
            ("method not allowed", decide(responder, "DELETE", "/v1/users/self")),
            ("preflight", decide(responder, "OPTIONS", "/v1/categories", headers: [("Host", "localhost"), ("Access-Control-Request-Method", "GET")])),
            ("two Hosts", decide(responder, "GET", "/v1/categories", headers: [("Host", "a"), ("Host", "a")])),
            ("declared too large", decide(responder, "GET", "/v1/categories", headers: [("Host", "a"), ("Content-Length", "99999999999")])),
            ("body refused", responder.admit(responder.route(method: .GET, path: UnsafeBufferPointer(start: nil, count: 0), headers: []), refusing: .bufferBudgetFull)),
        ]
        for (name, decision) in decisions {
            #expect(decision.headers.map(\.name) == ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"], "\(name)")
        }
        // CORS is for the mocked API: with it on /__mockapi/, any web page could read the journal (issue 30.3).
        let admin: [(String, Decision)] = [
            ("journal", decide(responder, "GET", "/__mockapi/requests")),
            ("journal count", decide(responder, "GET", "/__mockapi/requests/count")),
            ("routes", decide(responder, "GET", "/__mockapi/routes")),
            ("admin refused", decide(responder, "GET", "/__mockapi/requests", headers: [])),
            ("admin preflight", decide(responder, "OPTIONS", "/__mockapi/requests", headers: [("Host", "localhost"), ("Access-Control-Request-Method", "GET")])),
            ("reload", decide(responder, "POST", "/__mockapi/reload")),
            ("admin, two Hosts", decide(responder, "GET", "/__mockapi/requests", headers: [("Host", "a"), ("Host", "a")])),
        ]
        for (name, decision) in admin {
            #expect(decision.headers.isEmpty, "\(name)")
        }
        guard case .journal = admin[0].1.answer else { Issue.record("GET /__mockapi/requests is streamed"); return }
    }

    @Test func adminDecisionsAreNotJournaledAndReloadNeedsFiles() throws {
        let inMemory = try responder()
        let refusedReload = try #require(generated(decide(inMemory, "POST", "/__mockapi/reload")))
        #expect(refusedReload.status == 409)
        let reloadable = try responder {
            $0.canReload = true; $0.adminActions = ["POST /__mockapi/record/save"]
        }
        #expect(decide(reloadable, "POST", "/__mockapi/reload").journal == nil)
        guard case .adminAction(.reload) = decide(reloadable, "POST", "/__mockapi/reload").answer else { Issue.record("reload"); return }
        guard case .adminAction(.configured("POST /__mockapi/record/save")) = decide(reloadable, "POST", "/__mockapi/record/save").answer else {
            Issue.record("a configured action"); return
        }
        let noHost = try #require(generated(decide(reloadable, "POST", "/__mockapi/record/save", headers: [])))
        #expect(noHost.status == 403, "a configured action is guarded like every admin endpoint")
    }

    @Test func unmatchedRequestsAreForwardedOnlyWhenTheServerProxiesAndAfterPreflights() throws {
        let proxying = try responder {
            $0.forwardsUnmatched = true; $0.cors = true
        }
        let nowhere = Array("/v1/nowhere".utf8).withUnsafeBufferPointer { proxying.route(method: .POST, path: $0, headers: []) }
        #expect(nowhere.body == .raw, "a forwarded request keeps its body as sent")
        guard case .forward = decide(proxying, "POST", "/v1/nowhere").answer else { Issue.record("forward"); return }
        #expect(decide(proxying, "POST", "/v1/nowhere").journal == JournalNote())
        let preflight = try #require(
            generated(
                decide(
                    proxying, "OPTIONS", "/v1/categories",
                    headers: [("Host", "localhost"), ("Access-Control-Request-Method", "GET")])))
        #expect(preflight.status == 204)
        #expect(try generated(decide(responder(), "POST", "/v1/nowhere"))?.status == 404)
    }

    @Test func theHeadPlansTheBodyAndItsLimit() throws {
        let responder = try responder { $0.maxJSONBytes = 100 }
        func head(_ method: RequestMethod, _ path: String, _ headers: HeaderFields) -> RoutedHead {
            Array(path.utf8).withUnsafeBufferPointer { responder.route(method: method, path: $0, headers: headers) }
        }
        let json = head(.PUT, "/v1/projects/42/backers/2001", [("Content-Type", "application/json; charset=utf-8")])
        #expect(json.body == .json && json.bodyLimit == 100 && json.bodyLimitFlag == "--max-json-bytes")
        let upload = head(.POST, "/v1/projects/42/updates/draft/images", [("Content-Type", "multipart/form-data; boundary=XyZ")])
        #expect(upload.body == .multipart(boundary: "XyZ") && upload.bodyLimitFlag == "--max-body-bytes")
        let noBoundary = head(.POST, "/v1/projects/42/updates/draft/images", [("Content-Type", "multipart/form-data")])
        #expect(noBoundary.body == .malformed("Content-Type multipart/form-data has no boundary parameter"))
        #expect(head(.GET, "/v1/categories", [("Content-Type", "application/json")]).body == .discard)
        let declared: HeaderFields = [("Content-Length", "101")]
        guard case .answer(let refusal) = responder.admit(json, headers: declared, scan: declared.headScan()),
            case .generated(let tooLarge) = refusal.answer
        else { Issue.record("a declared body past the limit is refused at once"); return }
        #expect(tooLarge.status == 413 && tooLarge.problem?.contains("--max-json-bytes") == true)
    }

    /// The admit phase: a session that cannot serve the request is answered at once and not
    /// journaled, but only after a malformed header line, which is refused first (journaled).
    @Test func admitAnswersARefusedSessionUnjournaledAfterAMalformedLine() throws {
        let responder = try responder()
        let gone = GeneratedResponse(status: 404, json: ["error": "no session"])
        let head = Array("/v1/categories".utf8).withUnsafeBufferPointer { responder.route(method: .GET, path: $0, headers: []) }
        let plain: HeaderFields = [("Host", "localhost")]
        guard case .answer(let refused) = responder.admit(head, headers: plain, scan: plain.headScan(), refusedSession: gone) else {
            Issue.record("a refused session is answered at once"); return
        }
        #expect(generated(refused)?.status == 404 && refused.journal == nil)
        let folded: HeaderFields = [("Host", "localhost"), ("", "folded")]
        guard case .answer(let malformed) = responder.admit(head, headers: folded, scan: folded.headScan(), refusedSession: gone) else {
            Issue.record("a malformed line is answered at once"); return
        }
        #expect(generated(malformed)?.status == 400 && malformed.journal == JournalNote())
        guard case .readBody(nil) = responder.admit(head, headers: plain, scan: plain.headScan()) else { Issue.record("read on"); return }
    }

    /// The server's two shortcuts answer what the mechanism they skip would: a head `HeadScan`
    /// calls plain is one `admit` reads on for with nothing declared, and `plainAnswer` picks
    /// the response `decide` would, with no delay. A check added to either without the other fails here.
    @Test func theServersShortcutsAgreeWithAdmitAndDecide() throws {
        let responder = try responder()
        let plainHeads: [HeaderFields] = [
            [("Host", "localhost")], [("Host", "localhost"), ("Accept", "application/json"), ("X-Trace", "1")],
            [("Host", "localhost"), ("Prefer", "code=404")],
        ]
        let otherHeads: [HeaderFields] = [
            [("Host", "a"), ("Host", "b")], [("Content-Length", "0")], [("Transfer-Encoding", "chunked")],
            [("Mockapi-Session", "0123456789abcdef")], [("", "folded")], [], [("Accept", "*/*")],
        ]
        var plainAnswers = 0
        for contract in try Self.bundled.get().contracts where contract.request.method == .GET {
            let path = ConformingRequest(contract: contract).path
            Array(path.utf8).withUnsafeBufferPointer { bytes in
                for headers in plainHeads {
                    let head = responder.route(method: .GET, path: bytes, headers: headers)
                    let scan = headers.headScan()
                    #expect(scan.isPlain, "\(headers)")
                    guard case .readBody(declaredLength: nil) = responder.admit(head, headers: headers, scan: scan) else {
                        Issue.record("\(contract.name) \(headers): a plain head, yet admit does more than read on")
                        continue
                    }
                    let decided = responder.decide(head, method: "GET", path: bytes, query: [], headers: headers, bodyBytes: 0) { .success(.none) }
                    guard let shortcut = responder.plainAnswer(head, query: [], bodyBytes: 0, prefers: scan.prefers) else { continue }
                    plainAnswers += 1
                    guard case .prepared(let contractIndex, let response) = decided.answer, case .now = decided.timing else {
                        Issue.record("\(contract.name): plainAnswer answers \(shortcut), decide \(decided.answer)")
                        continue
                    }
                    #expect(shortcut.contract == contractIndex && shortcut.response == response, "\(contract.name) \(headers)")
                }
            }
        }
        #expect(plainAnswers > 0, "the bundled set has GET contracts with fixed answers")
        for headers in otherHeads { #expect(!headers.headScan().isPlain, "\(headers)") }
    }

    /// Rendering is the core's: a templated answer filled from the values the server supplies
    /// (its base URL), with the headers every prepared answer has (the contract's name, then CORS).
    @Test func theCoreRendersATemplatedAnswerFromTheServersValues() throws {
        let set = try Self.bundled.get()
        let index = try #require(set.contracts.firstIndex { $0.name == "activities" })
        let response = try #require(set.contracts[index].responses.firstIndex { $0.template != nil })
        let rendering = AnswerRendering(set: set, extraHeaders: Responder.corsHeaders)
        let rendered = rendering.render(
            contract: index, response: response, baseURL: "http://mock.test:9", path: "/v1/activities", query: [], body: .none, counting: .process)
        #expect(String(decoding: rendered.body, as: UTF8.self).contains("http://mock.test:9/"))
        #expect(!String(decoding: rendered.body, as: UTF8.self).contains("{{"))
        #expect(rendered.headers.first == HTTPField(Responder.contractHeader, "activities"))
        #expect(rendered.headers.suffix(2).map(\.name) == ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"])
        let filled = rendering.render(
            contract: index, response: response, baseURL: "", path: "/", query: [], body: .none, counting: .process, filled: Array("kept".utf8))
        #expect(filled.body == Array("kept".utf8), "a body filled at start is sent as it is")
    }

    /// The probes follow the shared readiness, whichever responder a reload made, and are never journaled.
    @Test func readyFollowsTheSharedReadinessAndProbesAreNotJournaled() throws {
        let readiness = Readiness(.loading)
        let responder = Responder(set: try Self.bundled.get(), adminAccess: AdminAccess(token: "s3cret"), readiness: readiness)
        let word = { (decision: Decision) in String(decoding: self.generated(decision)?.body ?? [], as: UTF8.self) }
        let loading = decide(responder, "GET", "/__mockapi/ready", headers: [])
        #expect(generated(loading)?.status == 503)
        #expect(word(loading) == "{\n  \"status\": \"loading\"\n}\n")
        #expect(loading.journal == nil)
        readiness.set(.ready)
        #expect(generated(decide(responder, "HEAD", "/__mockapi/ready", headers: []))?.status == 200)
        readiness.set(.reloadFailed)
        #expect(generated(decide(responder, "GET", "/__mockapi/ready", headers: []))?.status == 503)
        let health = decide(responder, "GET", "/__mockapi/health", headers: [])
        #expect(generated(health)?.status == 200)
        #expect(health.journal == nil)
        #expect(generated(decide(responder, "GET", "/__mockapi/routes", headers: []))?.status == 403, "the rest stays guarded")
    }
}
