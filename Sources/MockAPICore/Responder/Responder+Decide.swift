/// The three phases libmicrohttpd imposes on every request, each asked once, in order:
/// `route` (where does the head go, what of its body to keep), `admit` (read the body, or answer
/// now; and the answer to a body refused mid-way), `decide` (the whole request's answer).
extension Responder {
    /// Phase 1, route: where a request's head goes and what to keep of its body; `method` is nil
    /// for a method no contract can name.
    package func route(method: RequestMethod?, path: UnsafeBufferPointer<UInt8>, headers: HeaderFields) -> RoutedHead {
        route(to: destination(method: method, path: path), headers: headers)
    }

    /// `route` for a head whose destination is found already (the server asks `plainAnswer`
    /// of it first).
    @inline(__always)
    package func route(to destination: Destination, headers: HeaderFields) -> RoutedHead {
        var plan = RoutedHead.BodyPlan.discard
        var contentType: String?
        switch destination {
        case .contract(let index):
            // Only a contract that expects a body looks at its type; most requests skip the lookup.
            if let expectation = bodyExpectations[index] {
                contentType = headers.value(for: "Content-Type")
                plan = Self.bodyPlan(expecting: expectation, contentType: contentType)
                if plan == .discard, echoesBody[index] || rulesReadBody[index] { plan = Self.echoPlan(contentType: contentType) }
            }
        case .notFound, .methodNotAllowed:
            // Only a request no contract takes, on a server that forwards those, keeps its body.
            if policy.forwardsUnmatched { plan = .raw }
        case .admin:
            break
        }
        let json = (plan == .json || plan == .form) && policy.maxJSONBytes < policy.maxBodyBytes
        return RoutedHead(
            destination: destination, body: plan, contentType: contentType,
            bodyLimit: json ? policy.maxJSONBytes : policy.maxBodyBytes, limitIsJSON: json)
    }

    private static func bodyPlan(expecting expectation: RequestExpectation, contentType: String?) -> RoutedHead.BodyPlan {
        let essence = contentType.map(MediaType.essence)
        if expectation.multipart != nil, essence == "multipart/form-data" {
            guard let boundary = MediaType.parameter("boundary", in: contentType!) else {
                return .malformed("Content-Type multipart/form-data has no boundary parameter")
            }
            return .multipart(boundary: boundary)
        }
        if expectation.json != nil, let essence, expectation.body.readsJSON(essence) { return .json }
        if expectation.json != nil, let essence, expectation.body.readsForm(essence) { return .form }
        return .discard
    }

    /// What to keep for an answer that echoes the body when the contract's own rules keep none:
    /// a JSON body (any JSON type), a form, or a multipart body's text parts.
    private static func echoPlan(contentType: String?) -> RoutedHead.BodyPlan {
        guard let contentType else { return .discard }
        let essence = MediaType.essence(of: contentType)
        if MediaType.isJSON(essence) { return .json }
        if essence == MediaType.form { return .form }
        guard essence == "multipart/form-data" else { return .discard }
        // No boundary: nothing to echo, and a contract that checks no body does not refuse it.
        return MediaType.parameter("boundary", in: contentType).map { .multipart(boundary: $0) } ?? .discard
    }

    /// Phase 2, admit: what the head alone says, before any of the body is read (the request's
    /// headers scanned once by `HeaderFields.headScan`). Framing refused outright, and a declared
    /// body over the limit, are answered at once. So is more than one Host line (RFC 9112 §3.2
    /// asks for 400 even when they agree): which one names the server is unknowable; and none in
    /// an HTTP/1.1 request, or a space in its target (the same section). So is a
    /// malformed header line (RFC 9112 §5.2, RFC 9110 §5.5): what MHD made of it is not what the
    /// client sent, and the proxy must never send it on. `refusedSession`: the answer to a session
    /// that cannot serve the request (`sessionScope`), checked after a malformed line and not
    /// journaled: the request belongs to no session, and the server's journal is for requests
    /// made without one.
    package func admit(_ head: RoutedHead, headers: HeaderFields, scan: HeaderFields.HeadScan, refusedSession: GeneratedResponse? = nil) -> Admission {
        if scan.malformed {
            let reason = headers.malformation ?? "a header line is malformed"
            return headRefusal(ErrorResponses.malformed(reason, contract: nil), head)
        }
        if scan.targetHasSpace {
            return headRefusal(ErrorResponses.malformed("the request target has a space in it (RFC 9112 §3.2)", contract: nil), head)
        }
        if let refusedSession { return .answer(decision(.generated(refusedSession), journal: nil)) }
        if scan.hosts > 1 { return headRefusal(ErrorResponses.malformed("Host is given more than once (RFC 9112 §3.2)", contract: nil), head) }
        if scan.hosts == 0, scan.requiresHost {
            return headRefusal(ErrorResponses.malformed("an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2)", contract: nil), head)
        }
        // Neither `Content-Length` nor `Transfer-Encoding`: no body, and no walk to find that out.
        guard scan.framed else { return .readBody(declaredLength: nil) }
        switch BodyFraming(headers: headers) {
        case .none, .chunked:
            return .readBody(declaredLength: nil)
        case .length(let declared):
            return declared > head.bodyLimit ? .answer(admit(head, refusing: .tooLarge)) : .readBody(declaredLength: declared)
        case .lengthTooLarge:
            return .answer(admit(head, refusing: .tooLarge))
        case .conflictingLengths:
            return headRefusal(ErrorResponses.malformed("Content-Length is given more than once with different values", contract: nil), head)
        case .unsupportedEncoding(let encoding):
            return headRefusal(ErrorResponses.unsupportedTransferEncoding(encoding), head)
        }
    }

    /// A head refused: with the policy's headers, but none on an admin path (no CORS there).
    private func headRefusal(_ response: GeneratedResponse, _ head: RoutedHead) -> Admission {
        let refused = refusal(response)
        guard case .admin = head.destination else { return .answer(refused) }
        return .answer(refused.withoutPolicyHeaders)
    }

    /// Phase 2 still, for a body the server stopped reading (past its limit, or the shared
    /// buffer full): the admission the head got, withdrawn. Not a phase of its own: it answers
    /// the same question (may this body be read?) with facts that came in with the body.
    package func admit(_ head: RoutedHead, refusing reason: BodyRefusal) -> Decision {
        let refused =
            switch reason {
            case .tooLarge: refusal(ErrorResponses.tooLarge(limit: head.bodyLimit, flag: head.bodyLimitFlag))
            case .bufferBudgetFull: refusal(ErrorResponses.bufferBudgetFull(limit: policy.maxBufferedBytes))
            }
        guard case .admin = head.destination else { return refused }
        return refused.withoutPolicyHeaders
    }

    /// Phase 3, decide: the answer to a request whose body has arrived. `body` is read only when the answer
    /// depends on it: a plain request to a fixed response never parses one. `session`: the one the
    /// request is served in (its sequences advance), nil for most.
    /// `prefers`: whether the request has a `Prefer` header (`HeaderFields.HeadScan`); false
    /// spares looking for it.
    package func decide(
        _ head: RoutedHead, method: String, path: UnsafeBufferPointer<UInt8>, query: [QueryArgument],
        headers: HeaderFields, prefers: Bool = true, bodyBytes: Int, session: SessionState? = nil,
        body: () -> Result<IncomingRequest.Body, MalformedBody>
    ) -> Decision {
        switch head.destination {
        case .admin:
            return decideAdmin(method: method, path: String(decoding: path, as: UTF8.self), query: query, headers: headers).withoutPolicyHeaders
        case .notFound, .methodNotAllowed:
            if policy.cors, let preflight = preflight(method: method, path: path, headers: headers) {
                return decision(.generated(preflight), journal: JournalNote())
            }
            if policy.forwardsUnmatched { return decision(.forward, journal: JournalNote()) }
            return refusal(respondUnrouted(head.destination, rawMethod: method, path: String(decoding: path, as: UTF8.self)))
        case .contract(let index):
            let preferHeader = prefers ? headers.value(of: "Prefer") : nil
            if policy.delay == nil, let response = plainResponse(toContract: index, query: query, bodyBytes: bodyBytes, prefer: preferHeader) {
                return decision(.prepared(contract: index, response: response), journal: JournalNote(contract: index, response: response))
            }
            let prefer = Prefer(preferHeader, delayCeiling: policy.maxDelayMilliseconds)
            switch body() {
            case .failure(let malformed):
                return refusal(ErrorResponses.malformed(malformed.reason, contract: set.contracts[index]), about: index)
            case .success(let body):
                let request = IncomingRequest(query: query, headers: headers, contentType: head.contentType, body: body)
                return respond(toContract: index, request: request, path: path, prefer: prefer, in: session)
            }
        }
    }

    /// The answer for a request routed to a contract, once its body has arrived; `prefer` is
    /// its `Prefer` header, read once. In a session, its own sequence positions are advanced.
    /// Built as a `Decision` here: the response chosen, its resource operation and its timing.
    package func respond(
        toContract routed: Int, request: IncomingRequest, path: UnsafeBufferPointer<UInt8>, prefer: Prefer = Prefer(nil),
        in session: SessionState? = nil
    ) -> Decision {
        var index = routed
        if let members = set.routes.discriminated[routed] {
            guard
                let chosen = members.first(where: {
                    set.contracts[$0].request.match!.admits(query: request.query, body: request.body, contentType: request.contentType)
                })
            else {
                return refusal(ErrorResponses.noDiscriminatorMatches(members.map { set.contracts[$0] }, request: request, set: set))
            }
            index = chosen
        }
        let contract = set.contracts[index]
        var violations = RequestValidator.violations(of: request, against: contract.request)
        if violations.isEmpty {
            switch ResponseSelector.select(
                for: contract, index: index, query: request.query, body: request.body, contentType: request.contentType,
                prefer: prefer.selection, scenarios: session?.scenarios ?? scenarios)
            {
            case .success(let response):
                if let (answer, answered) = resourceAnswer(
                    contract: index, response: response, path: path, body: request.body, store: session?.resources ?? resourceStore)
                {
                    return decision(.generated(answer), journal: JournalNote(contract: index, response: answered))
                }
                return timed(contract: index, response: response, prefer: prefer)
            case .failure(let violation):
                violations.append(violation)
            }
        }
        return refusal(ErrorResponses.contractViolation(contract, index: index, set: set, violations: violations), about: index)
    }

    /// What `decide` answers a plain request (no query, no body, no `Prefer`: `prefers` false)
    /// routed to a contract whose answer to one is fixed, when nothing delays it: that prepared
    /// response, journaled as about it, now. The server queues it without a `Decision` to build,
    /// copy and destroy (most mock traffic is such requests). Nil: ask `decide`.
    @inline(__always)
    package func plainAnswer(_ head: RoutedHead, query: [QueryArgument], bodyBytes: Int, prefers: Bool) -> (contract: Int, response: Int)? {
        guard case .contract(let index) = head.destination, query.isEmpty, bodyBytes == 0,
            let response = plainAnswer(toContract: index, prefers: prefers)
        else { return nil }
        return (index, response)
    }

    /// The same for a plain request with neither query nor body, from its contract alone: the
    /// server asks before it routes the rest of the head (`route(to:headers:)`).
    @inline(__always)
    package func plainAnswer(toContract index: Int, prefers: Bool) -> Int? {
        guard !prefers, policy.delay == nil else { return nil }
        return plainResponse(toContract: index, query: [], bodyBytes: 0, prefer: nil)
    }

    /// A contract's chosen response, with the delay or fault the request (`Prefer`), the response
    /// or the server (`--delay`) asks for.
    private func timed(contract index: Int, response: Int, prefer: Prefer) -> Decision {
        let contract = set.contracts[index]
        if let violation = prefer.timingViolation {
            return refusal(ErrorResponses.contractViolation(contract, index: index, set: set, violations: [violation]), about: index)
        }
        let note = JournalNote(contract: index, response: response)
        if let fault = prefer.fault ?? contract.responses[response].fault {
            return decision(.prepared(contract: index, response: response), timing: .fault(fault), journal: note)
        }
        var timing = Decision.Timing.now
        if let delay = prefer.delay ?? contract.responses[response].delay ?? policy.delay {
            let milliseconds = delay.sample(atMost: policy.maxDelayMilliseconds)
            if milliseconds > 0 { timing = .after(milliseconds: milliseconds) }
        }
        return decision(.prepared(contract: index, response: response), timing: timing, journal: note)
    }

    /// Admin endpoints: the probes (unguarded), the command's own actions, then the responder's
    /// (`respondAdmin`). None is journaled.
    func decideAdmin(method: String, path: String, query: [QueryArgument], headers: HeaderFields) -> Decision {
        // Before the guard: a probe carries neither the token nor a loopback Host.
        if let probe = probeAnswer(method: method, path: path) { return decision(.generated(probe), journal: nil) }
        let key = "\(method) \(path)"
        if policy.adminActions.contains(key) {
            if let refusal = adminAccess.refusal(method: method, headers: headers) { return decision(.generated(refusal), journal: nil) }
            return decision(.adminAction(.configured(key)), journal: nil)
        }
        return respondAdmin(method: method, path: path, query: query, headers: headers)
    }

    /// A refusal (or any made answer) journaled as about contract `about`.
    func refusal(_ response: GeneratedResponse, about contract: Int? = nil) -> Decision {
        decision(.generated(response), journal: JournalNote(contract: contract))
    }

    /// Every decision is made here, so every one carries the policy's headers.
    func decision(_ answer: Decision.Answer, timing: Decision.Timing = .now, journal: JournalNote?) -> Decision {
        Decision(answer, timing: timing, journal: journal, headers: extraHeaders)
    }
}
