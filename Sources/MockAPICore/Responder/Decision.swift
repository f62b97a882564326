/// What the server does with one request, decided in full by the `Responder` with no sockets:
/// the server (`RequestHandler`) executes it and decides nothing itself.
///
/// Made only by the responder (`Responder.decision`), which gives every one the headers its
/// `ServingPolicy` adds to every answer (CORS): no path can forget them.
package struct Decision: Sendable {
    package enum Answer: Sendable {
        /// A contract's response, prepared at start (or rendered for this request when its body
        /// has request placeholders).
        case prepared(contract: Int, response: Int)
        // The two large payloads are boxed (indirect): a `Decision` is copied and destroyed
        // several times per request, and inline they made it ~200 bytes, moved with memcpy, for
        // the common prepared answer that carries two integers.
        /// A response made for this request (a refusal, an admin answer).
        indirect case generated(GeneratedResponse)
        /// `GET /__mockapi/requests`, streamed page by page; `lastID` was read before any entry.
        /// `session`: the journal of the session it names (`?session=ID`), nil for the server's.
        indirect case journal(JournalQuery, lastID: Int, session: SessionState?)
        /// Run off the worker threads; its answer comes later (`answered(with:)`).
        case adminAction(AdminAction)
        /// Sent on to the real backend (`--proxy-unmatched`, `record`); its answer comes later.
        case forward
    }

    /// When the answer goes out.
    package enum Timing: Sendable, Equatable {
        case now
        /// Held back this many milliseconds (more than 0).
        case after(milliseconds: Double)
        /// Broken on purpose instead of answered.
        case fault(Fault)
        /// Now, decided in the middle of the body, when libmicrohttpd takes no response until the
        /// body has ended: written on the socket as it is, and the connection closed (`midBody`).
        case midBody
    }

    package private(set) var answer: Answer
    package private(set) var timing: Timing
    /// Added to whatever goes out; the prepared responses carry them already.
    package let headers: [HTTPField]
    /// What the journal and the log say the request was about; nil for admin requests, which
    /// are not the API's traffic and are not journaled.
    package private(set) var journal: JournalNote?

    init(_ answer: Answer, timing: Timing, journal: JournalNote?, headers: [HTTPField]) {
        self.answer = answer
        self.timing = timing
        self.journal = journal
        self.headers = headers
    }

    /// The same request, answered now with `response` (a reply that came later, a server that is
    /// stopping): the same headers, the same journal note.
    package func answered(with response: GeneratedResponse) -> Decision {
        var decision = self
        decision.answer = .generated(response)
        decision.timing = .now
        return decision
    }

    /// The same decision without the policy's headers: admin answers (`/__mockapi/…`). CORS is
    /// for the API a team mocks; with it on the admin endpoints, any web page could read the
    /// journal (the requests' headers and queries) and drive the server.
    package var withoutPolicyHeaders: Decision {
        Decision(answer, timing: timing, journal: journal, headers: [])
    }

    /// The same decision with its delay served: what a woken connection executes.
    package var dueNow: Decision {
        var decision = self
        decision.timing = .now
        return decision
    }

    /// The same decision, to be written on the socket at once and the connection closed: a
    /// refusal decided before the body has ended (`Timing.midBody`).
    package var midBody: Decision {
        var decision = self
        decision.timing = .midBody
        return decision
    }

    /// `response` with the headers every answer gets.
    package static func finished(_ response: GeneratedResponse, headers: [HTTPField]) -> GeneratedResponse {
        guard !headers.isEmpty else { return response }
        var response = response
        response.headers += headers
        return response
    }
}

/// Who a journaled request was about: indexes into the set the decision was made from.
package struct JournalNote: Sendable, Equatable {
    package var contract: Int?
    package var response: Int?

    package init(contract: Int? = nil, response: Int? = nil) {
        self.contract = contract
        self.response = response
    }
}

/// An admin endpoint that runs off the worker threads.
package enum AdminAction: Sendable, Equatable {
    /// `POST /__mockapi/reload`.
    case reload
    /// One of `ServingPolicy.adminActions`, by its `METHOD /path` key.
    case configured(String)
}

extension Fault {
    /// The journal's problem for a request answered with this fault.
    package var journalProblem: String { "fault: \(rawValue)" }
}
