import MockAPICore

/// The request side of a contract: a change breaks old clients when the new contract refuses a
/// request the old one accepted (a new required key, a narrower type or enum, a key no longer
/// accepted: query keys, JSON keys and parts not named are refused).
struct RequestComparison {
    let contract: String
    private(set) var changes: [ContractChange] = []

    init(contract: String) {
        self.contract = contract
    }

    mutating func compare(_ old: RequestExpectation, _ new: RequestExpectation) {
        compareQuery(old.query, new.query)
        compareHeaders(old.headers, new.headers)
        compareCredentials(old.credentials, new.credentials)
        switch (old.json, new.json) {
        case (nil, let keys?):
            note("request.json", .breaking, "a JSON body is now checked (\(keys.filter(\.required).count) required keys)")
        case (_?, nil):
            note("request.json", .compatible, "the JSON body is no longer checked")
        case (let before?, let after?):
            // Options newly given close the body (as `compareOptions` says), not open it.
            let isOpen = new.body.otherKeys || (new.body.branches != nil && old.body.branches != nil)
            compareKeys(before, after, at: "request.json", wasOpen: old.body.takesOtherKeys, isOpen: isOpen)
        case (nil, nil):
            break
        }
        compareOptions(old.body, new.body)
        switch (old.multipart, new.multipart) {
        case (nil, _?):
            note("request.multipart", .breaking, "a multipart body is now required")
        case (_?, nil):
            note("request.multipart", .compatible, "the multipart body is no longer checked")
        case (let before?, let after?):
            compareParts(before, after)
        case (nil, nil):
            break
        }
        compareMediaTypes(old, new)
        if old.match != new.match {
            let impact: ContractChange.Impact = new.match == nil ? .compatible : .breaking
            note("request.match", impact, "match rule changed from \(old.match?.description ?? "none") to \(new.match?.description ?? "none")")
        }
    }

    /// The media types a body may come as: one no longer taken breaks, a new one does not.
    private mutating func compareMediaTypes(_ old: RequestExpectation, _ new: RequestExpectation) {
        func taken(_ request: RequestExpectation) -> [String]? {
            request.body.contentTypes ?? (request.json != nil ? ["application/json"] : nil)
        }
        guard let before = taken(old), let after = taken(new), before != after else { return }
        let removed = before.filter { !after.contains($0) }, added = after.filter { !before.contains($0) }
        if !removed.isEmpty { note("request.body.contentTypes", .breaking, "no longer takes a body as \(removed.joined(separator: ", "))") }
        if !added.isEmpty { note("request.body.contentTypes", .compatible, "also takes a body as \(added.joined(separator: ", "))") }
    }

    /// The objects a JSON body may be (`body.oneOf`/`anyOf`): options where there were none, or
    /// one gone, refuse bodies that were taken; each option kept is compared as a schema.
    private mutating func compareOptions(_ old: BodyRules, _ new: BodyRules) {
        switch (old.branches, new.branches) {
        case (nil, let after?):
            note("request.body.\(after.keyword)", .breaking, "the body must now fit one of \(after.schemas.count) objects")
        case (let before?, nil):
            note("request.body.\(before.keyword)", .compatible, "the body no longer needs to fit one of its \(before.schemas.count) objects")
        case (let before?, let after?):
            let location = "request.body.\(after.keyword)"
            for (offset, option) in before.schemas.enumerated() {
                guard offset < after.schemas.count else {
                    note("\(location)[\(offset)]", .breaking, "option \(offset + 1) is gone (a body of it gets 422)")
                    continue
                }
                compareSchema(option, after.schemas[offset], at: "\(location)[\(offset)]")
            }
            if after.schemas.count > before.schemas.count {
                note(location, .compatible, "\(after.schemas.count - before.schemas.count) more objects taken")
            }
        case (nil, nil):
            break
        }
    }

    private mutating func compareQuery(_ old: [QueryExpectation], _ new: [QueryExpectation]) {
        compareNamed(
            old, new, name: \.name, required: \.required, at: "request.query", noun: "query key",
            removed: "is no longer accepted (a client that sends it gets 422)"
        ) { comparison, before, after, location in
            if before.type != after.type {
                let widened = after.type == .string || (before.type == .int && after.type == .number)
                comparison.note(location, widened ? .compatible : .breaking, "type changed from \(before.type.rawValue) to \(after.type.rawValue)")
            }
            if before.repeated && !after.repeated { comparison.note(location, .breaking, "may no longer be sent more than once") }
            if let style = before.arrayStyle, after.arrayStyle != style {
                let now = after.arrayStyle.map { "now sent as \($0.rawValue)" } ?? "now takes no list"
                comparison.note(location, .breaking, "was sent as \(style.rawValue), \(now)")
            }
            comparison.compareEnum(before.enumValues, after.enumValues, at: location)
            comparison.compareNested(before, after, at: location)
        }
    }

    /// Nested parts (`created[gt]=1`): a form a client sent that is no longer taken breaks; a new one does not.
    private mutating func compareNested(_ before: QueryExpectation, _ after: QueryExpectation, at location: String) {
        switch (before.nested, after.nested) {
        case (nil, nil):
            break
        case (nil, let now?):
            let bareKept = now.plain || after.array
            note(
                location, bareKept ? .compatible : .breaking,
                bareKept
                    ? "now also takes nested parts (\(after.name)[…]=…)"
                    : "now takes only nested parts (\(after.name)[…]=…), not \(after.name)=…")
        case (_?, nil):
            note(location, .breaking, "no longer takes nested parts (\(before.name)[…]=…)")
        case (let old?, let new?):
            if old.plain || before.array, !(new.plain || after.array) { note(location, .breaking, "no longer takes the bare \(after.name)=…") }
            if !(old.plain || before.array), new.plain || after.array { note(location, .compatible, "now also takes the bare \(after.name)=…") }
            switch (old.keys, new.keys) {
            case (nil, let keys?): note(location, .breaking, "nested parts now limited to \(keys.joined(separator: ", "))")
            case (_?, nil): note(location, .compatible, "nested parts no longer limited to a list")
            case (let was?, let now?):
                let removed = was.filter { !now.contains($0) }, added = now.filter { !was.contains($0) }
                if !removed.isEmpty { note(location, .breaking, "no longer takes nested parts \(removed.joined(separator: ", "))") }
                if !added.isEmpty { note(location, .compatible, "also takes nested parts \(added.joined(separator: ", "))") }
            case (nil, nil): break
            }
        }
    }

    private mutating func compareHeaders(_ old: [HeaderExpectation], _ new: [HeaderExpectation]) {
        for after in new {
            let location = "request.headers.\(after.name)"
            guard let before = old.first(where: { $0.name.lowercased() == after.name.lowercased() }) else {
                if after.required { note(location, .breaking, "new required header \(after.name)") }
                continue
            }
            compareRequired(before.required, after.required, at: location, what: "header \(after.name)")
            if !after.prefixes.isEmpty, !before.prefixes.isEmpty || before.enumValues == nil {
                let lost = before.prefixes.isEmpty ? ["any value"] : before.prefixes.filter { !after.prefixes.contains($0) }
                if !lost.isEmpty { note(location, .breaking, "prefix was \(Self.prefixes(before.prefixes)), now \(Self.prefixes(after.prefixes))") }
            }
            compareEnum(before.enumValues, after.enumValues, at: location)
        }
        for before in old where before.required && !new.contains(where: { $0.name.lowercased() == before.name.lowercased() }) {
            note("request.headers.\(before.name)", .compatible, "header \(before.name) is no longer checked")
        }
    }

    /// `"token "`, `one of "token ", "Bearer "`, or `any value` for none: old and new read the same way.
    private static func prefixes(_ list: [String]) -> String {
        let quoted = list.map { "\"\($0)\"" }
        switch quoted.count {
        case 0: return "any value"
        case 1: return quoted[0]
        default: return "one of " + quoted.joined(separator: ", ")
        }
    }

    /// Credentials are alternatives: one dropped breaks the clients that sent it; one added breaks none.
    private mutating func compareCredentials(_ old: CredentialExpectation?, _ new: CredentialExpectation?) {
        switch (old, new) {
        case (nil, let after?):
            note("request.credentials", .breaking, "one of \(after.anyOf.map(\.summary).joined(separator: "; ")) is now required")
        case (_?, nil):
            note("request.credentials", .compatible, "credentials are no longer checked")
        case (let before?, let after?):
            for credential in before.anyOf where !after.anyOf.contains(credential) {
                note("request.credentials", .breaking, "\(credential.summary) is no longer accepted")
            }
        case (nil, nil):
            break
        }
    }

    /// An object's keys. One no longer named is refused with a 422 by a closed object, but taken
    /// (unchecked) by an open one (`otherKeys`): there the old client still gets its answer.
    private mutating func compareKeys(_ old: [JSONKeyExpectation], _ new: [JSONKeyExpectation], at path: String, wasOpen: Bool, isOpen: Bool) {
        compareNamed(
            old, new, name: \.key, required: \.required, at: path, noun: "key",
            removed: isOpen
                ? "is no longer named, and still taken: the object takes keys it does not name (a client that sends it gets the answer, not a 422)"
                : "is no longer accepted (a client that sends it gets 422)",
            removedImpact: isOpen ? .compatible : .breaking
        ) { comparison, before, after, location in
            comparison.compareSchema(before.schema, after.schema, at: location)
        }
        if wasOpen, !isOpen { note(path, .breaking, "no longer takes keys it does not name (a client that sends one gets 422)") }
        if !wasOpen, isOpen { note(path, .compatible, "now takes keys it does not name") }
    }

    private mutating func compareSchema(_ old: JSONValueSchema, _ new: JSONValueSchema, at location: String) {
        if old.type != new.type {
            let widened = new.type == .any || (old.type == .int && new.type == .number)
            note(location, widened ? .compatible : .breaking, "type changed from \(old.type.rawValue) to \(new.type.rawValue)")
        }
        compareEnum(old.enumValues?.map(\.serialized), new.enumValues?.map(\.serialized), at: location)
        switch (old.properties, new.properties) {
        case (let before?, let after?): compareKeys(before, after, at: location, wasOpen: old.otherKeys, isOpen: new.otherKeys)
        case (nil, let after?): note(location, .breaking, "its keys are now checked (\(after.map(\.key).joined(separator: ", ")))")
        default: break
        }
        if let before = old.items, let after = new.items { compareSchema(before, after, at: location + "[]") }
    }

    private mutating func compareParts(_ old: [PartExpectation], _ new: [PartExpectation]) {
        compareNamed(
            old, new, name: \.name, required: \.required, at: "request.multipart", noun: "part",
            removed: "is no longer accepted"
        ) { comparison, before, after, location in
            if after.filename && !before.filename { comparison.note(location, .breaking, "now needs a filename") }
            comparison.compareEnum(before.contentTypes, after.contentTypes, at: location + ".contentTypes")
            if let limit = after.maxBytes, limit < (before.maxBytes ?? Int.max) {
                comparison.note(location, .breaking, "was \(before.maxBytes.map { "at most \($0) bytes" } ?? "not limited"), now at most \(limit) bytes")
            }
            if after.checkBytes && !before.checkBytes {
                comparison.note(location, .breaking, "its bytes must now match its Content-Type (checkBytes)")
            }
        }
    }

    /// The walk query keys, JSON keys and parts share: a new one breaks when required, a removed
    /// one breaks (the mock refuses what a contract does not name), and each pair is compared by `both`.
    private mutating func compareNamed<Item>(
        _ old: [Item], _ new: [Item], name: KeyPath<Item, String>, required: KeyPath<Item, Bool>,
        at prefix: String, noun: String, removed: String, removedImpact: ContractChange.Impact = .breaking,
        _ both: (inout RequestComparison, Item, Item, String) -> Void
    ) {
        for after in new {
            let itemName = after[keyPath: name], location = "\(prefix).\(itemName)"
            guard let before = old.first(where: { $0[keyPath: name] == itemName }) else {
                let isRequired = after[keyPath: required]
                note(location, isRequired ? .breaking : .compatible, "new \(isRequired ? "required" : "optional") \(noun) \(itemName)")
                continue
            }
            compareRequired(before[keyPath: required], after[keyPath: required], at: location, what: "\(noun) \(itemName)")
            both(&self, before, after, location)
        }
        for before in old where !new.contains(where: { $0[keyPath: name] == before[keyPath: name] }) {
            note("\(prefix).\(before[keyPath: name])", removedImpact, "\(noun) \(before[keyPath: name]) \(removed)")
        }
    }

    private mutating func compareRequired(_ before: Bool, _ after: Bool, at location: String, what: String) {
        if after && !before { note(location, .breaking, "\(what) is now required") }
        if before && !after { note(location, .compatible, "\(what) is now optional") }
    }

    /// A list of allowed values: narrowed (a value gone, or a list where there was none) breaks.
    private mutating func compareEnum(_ old: [String]?, _ new: [String]?, at location: String) {
        switch (old, new) {
        case (nil, let after?):
            note(location, .breaking, "now limited to \(after.joined(separator: ", "))")
        case (_?, nil):
            note(location, .compatible, "no longer limited to a list of values")
        case (let before?, let after?):
            let removed = before.filter { !after.contains($0) }, added = after.filter { !before.contains($0) }
            if !removed.isEmpty { note(location, .breaking, "no longer accepts \(removed.joined(separator: ", "))") }
            if !added.isEmpty { note(location, .compatible, "also accepts \(added.joined(separator: ", "))") }
        case (nil, nil):
            break
        }
    }

    private mutating func note(_ location: String, _ impact: ContractChange.Impact, _ message: String) {
        changes.append(ContractChange(contract: contract, location: location, impact: impact, message: message))
    }
}
