import MockAPICore

/// What a response does beyond its status and body: the `when` that selects it, whether its
/// placeholders are filled, a `fault` and a `delay`. An app sees each of them, so each is a
/// finding; one breaks when a request an old client sends gets another answer than before.
struct ResponseBehaviourComparison {
    let contract: String
    let location: String
    private(set) var changes: [ContractChange] = []

    init(contract: String, location: String) {
        self.contract = contract
        self.location = location
    }

    mutating func compare(_ before: ResponseDefinition, _ after: ResponseDefinition) {
        compareWhen(before, after)
        comparePlaceholders(before, after)
        compareFault(before, after)
        compareDelay(before.delay, after.delay)
    }

    /// A `when` picks this response for requests that carry its values: removed or changed, those
    /// requests get the default answer; added, they no longer get the default answer.
    private mutating func compareWhen(_ before: ResponseDefinition, _ after: ResponseDefinition) {
        let here = location + ".when"
        switch (before.when, after.when) {
        case (nil, let now?):
            note(here, .breaking, "now served when \(now.description): such requests got the default answer, now \(after.status)")
        case (let was?, nil):
            note(here, .breaking, "no longer served when \(was.description): such requests got \(before.status), now the default answer")
        case (let was?, let now?) where was != now:
            note(here, .breaking, "was served when \(was.description), now when \(now.description): requests with the old values get the default answer")
        default:
            break
        }
    }

    /// `placeholders: false` serves `{{baseURL}}` as text where the old set filled it in.
    private mutating func comparePlaceholders(_ before: ResponseDefinition, _ after: ResponseDefinition) {
        let here = location + ".placeholders"
        if before.template != nil, after.template == nil, Self.hasPlaceholderText(after.body) {
            note(here, .breaking, "placeholders are no longer filled (placeholders: false): clients get the {{…}} text as it is")
        } else if before.template == nil, after.template != nil, Self.hasPlaceholderText(before.body) {
            note(here, .compatible, "placeholders are now filled: the {{…}} text served as it was is replaced by values")
        }
    }

    /// A fault answers with a broken connection instead of the response: added, clients that got
    /// the answer get a network error.
    private mutating func compareFault(_ before: ResponseDefinition, _ after: ResponseDefinition) {
        let here = location + ".fault"
        switch (before.fault, after.fault) {
        case (nil, let now?):
            note(here, .breaking, "now answers with a fault (\(now.rawValue)): clients get a network error instead of \(after.status)")
        case (let was?, nil):
            note(here, .compatible, "no longer a fault (was \(was.rawValue)): clients get \(after.status)")
        case (let was?, let now?) where was != now:
            note(here, .breaking, "fault was \(was.rawValue), now \(now.rawValue)")
        default:
            break
        }
    }

    /// A delay changes when the answer comes, not what it is: compatible, with the wait named so
    /// a reader can hold it against the app's timeout.
    private mutating func compareDelay(_ before: Latency?, _ after: Latency?) {
        let here = location + ".delay"
        switch (before, after) {
        case (nil, let now?):
            note(here, .compatible, "now waits \(Self.describe(now)) before answering (a client whose timeout is shorter fails)")
        case (let was?, nil):
            note(here, .compatible, "no longer waits (was \(Self.describe(was)))")
        case (let was?, let now?) where was != now:
            note(here, .compatible, "wait was \(Self.describe(was)), now \(Self.describe(now))")
        default:
            break
        }
    }

    static func describe(_ latency: Latency) -> String {
        func ms(_ value: Double) -> String { value.rounded() == value ? String(Int(value)) : String(value) }
        switch latency {
        case .fixed(let value): return "\(ms(value)) ms"
        case .uniform(let low, let high): return "\(ms(low))-\(ms(high)) ms"
        case .logNormal(let median, let sigma): return "about \(ms(median)) ms (log-normal, sigma \(sigma))"
        }
    }

    private static func hasPlaceholderText(_ body: [UInt8]) -> Bool {
        String(decoding: body, as: UTF8.self).contains("{{")
    }

    private mutating func note(_ location: String, _ impact: ContractChange.Impact, _ message: String) {
        changes.append(ContractChange(contract: contract, location: location, impact: impact, message: message))
    }
}
