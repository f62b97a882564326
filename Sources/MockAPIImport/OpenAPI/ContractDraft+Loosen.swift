import MockAPICore

extension ContractDraft {
    /// This contract loosened to take `other`'s requests too, for two operations on one route
    /// (`PUT /files/{id}` and `PUT /files/{id}#add_shared_link`): each key, header, part and
    /// credential is required only where both require it, a key the two describe differently is
    /// checked by what they share, and whatever either allows is allowed. Its answers stay its own.
    mutating func loosen(toTake other: ContractDraft, dropsMatch: Bool) {
        if dropsMatch { file.match = nil }
        file.query = Self.union(file.query, other.query, name: \.name) { mine, theirs in
            var kept = mine
            kept.required = mine.required && theirs.required
            if mine.type != theirs.type || mine.arrayStyle != theirs.arrayStyle || mine.nested != theirs.nested {
                kept = QueryExpectation(name: mine.name, required: kept.required)
            } else if mine.enumValues != theirs.enumValues {
                kept.enumValues = nil
            }
            return kept
        } notShared: {
            var query = $0; query.required = false; return query
        }
        file.headers = Self.union(file.headers, other.headers, name: { $0.name.lowercased() }) { mine, theirs in
            var kept = mine
            kept.required = mine.required && theirs.required
            if mine.prefixes != theirs.prefixes { kept.prefixes = [] }
            if mine.enumValues != theirs.enumValues { kept.enumValues = nil }
            return kept
        } notShared: {
            var header = $0; header.required = false; header.refusal = nil; return header
        }
        if file.credentials != other.credentials { file.credentials = nil }
        loosenBody(toTake: other)
    }

    private mutating func loosenBody(toTake other: ContractDraft) {
        guard file.json != other.json || file.multipart != other.multipart || file.body != other.body else { return }
        let mine = self
        // A body only one of them checks: the other's requests may send anything, so nothing is checked.
        guard mine.json != nil || mine.multipart != nil || mine.body.contentTypes != nil,
            other.json != nil || other.multipart != nil || other.body.contentTypes != nil
        else {
            file.json = nil
            file.multipart = nil
            file.body = BodyRules()
            return
        }
        var rules = BodyRules(
            required: mine.body.required && other.body.required, nullable: mine.body.nullable || other.body.nullable,
            otherKeys: mine.body.otherKeys || other.body.otherKeys, otherTypes: mine.body.otherTypes || other.body.otherTypes)
        // The objects either body may be are not kept: the keys any of them names are taken.
        if mine.body.branches != nil || other.body.branches != nil { rules.otherKeys = true }
        switch (mine.json, other.json) {
        case (let mineKeys?, let theirKeys?):
            file.json = Self.union(mineKeys, theirKeys, name: \.key) { mine, theirs in
                JSONKeyExpectation(key: mine.key, required: mine.required && theirs.required, schema: mine.schema == theirs.schema ? mine.schema : JSONValueSchema())
            } notShared: {
                JSONKeyExpectation(key: $0.key, required: false, schema: $0.schema)
            }
        case (nil, nil): file.json = nil
        default:
            // One reads JSON keys, the other not: the keys are kept open and optional.
            file.json = (mine.json ?? other.json)?.map { JSONKeyExpectation(key: $0.key, required: false, schema: $0.schema) }
            rules.otherKeys = true
            rules.otherTypes = true
        }
        switch (mine.multipart, other.multipart) {
        case (let mineParts?, let theirParts?):
            file.multipart = Self.union(mineParts, theirParts, name: \.name) { mine, theirs in
                PartExpectation(name: mine.name, required: mine.required && theirs.required, filename: mine.filename && theirs.filename)
            } notShared: {
                PartExpectation(name: $0.name, required: false, filename: $0.filename)
            }
        case (nil, nil): file.multipart = nil
        default:
            file.multipart = nil
        }
        // The media types either takes (no list for `json` alone is application/json).
        func types(_ draft: ContractDraft) -> [String] {
            draft.body.contentTypes ?? (draft.json != nil ? ["application/json"] : [])
        }
        var listed = types(mine)
        for type in types(other) where !listed.contains(type) { listed.append(type) }
        // Parts only one of them names: multipart requests are taken unread.
        if mine.multipart != nil || other.multipart != nil, file.multipart == nil, !listed.contains("multipart/form-data") { listed.append("multipart/form-data") }
        rules.contentTypes = listed.isEmpty || (listed == ["application/json"] && file.json != nil) ? nil : listed
        if file.json == nil {
            rules.nullable = false
            rules.otherTypes = false
            if file.multipart == nil { rules.otherKeys = false }
        }
        file.body = rules
    }

    /// `mine` and `theirs` by name, in order: shared ones through `shared`, the rest through `notShared`.
    private static func union<Element>(
        _ mine: [Element], _ theirs: [Element], name: (Element) -> String, shared: (Element, Element) -> Element,
        notShared: (Element) -> Element
    ) -> [Element] {
        var result = mine.map { element in
            theirs.first { name($0) == name(element) }.map { shared(element, $0) } ?? notShared(element)
        }
        for element in theirs where !mine.contains(where: { name($0) == name(element) }) { result.append(notShared(element)) }
        return result
    }
}
