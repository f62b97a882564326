/// One operation on one collection, run under the store's lock: create, list, read, replace
/// (the body's keys over the item's), merge (RFC 7396) or remove.
struct ResourceOperation {
    enum Outcome {
        /// The answer's JSON body: an item, or the list fixture with the stored items in place.
        case body(JSONValue)
        case removed
        case notFound(String)
        case invalid([Violation])
        case full(String)
    }

    let resource: ResourceTable.Resource
    /// The item's id from the path; nil on the collection.
    let id: String?
    /// The request's body as JSON (a form's fields as strings); nil when it had none.
    let body: JSONValue?

    func perform(_ operation: ResourceTable.Operation, on collection: inout ResourceStore.Collection) -> Outcome {
        switch operation {
        case .list:
            guard let listing = resource.listing else { return .body(.array(collection.items)) }
            return .body(listing.items.replacing(in: listing.body, with: .array(collection.items)) ?? .array(collection.items))
        case .create:
            return create(in: &collection)
        case .read, .replace, .merge, .remove:
            guard let id, let position = collection.items.firstIndex(where: { item in item.objectValue?[resource.idKey].flatMap(ResourceID.text) == id }) else {
                return .notFound(id ?? "")
            }
            switch operation {
            case .read:
                return .body(collection.items[position])
            case .remove:
                collection.items.remove(at: position)
                return .removed
            default:
                guard case .object(let written)? = body else { return .invalid([Violation("body", "a \(resource.name) item is a JSON object")]) }
                guard case .object(var item) = collection.items[position] else { return .invalid([Violation("body", "the stored item is not an object")]) }
                let kept = item[resource.idKey]
                item = operation == .merge ? Self.mergePatch(item, written) : Self.overlay(item, written)
                item[resource.idKey] = kept
                if let violations = shapeViolations(of: item) { return .invalid(violations) }
                collection.items[position] = .object(item)
                return .body(.object(item))
            }
        }
    }

    private func create(in collection: inout ResourceStore.Collection) -> Outcome {
        guard case .object(let written)? = body else { return .invalid([Violation("body", "a \(resource.name) item is a JSON object")]) }
        guard collection.items.count < ResourceStore.maxItems else {
            return .full("\(resource.name) holds \(ResourceStore.maxItems) items, the most a collection keeps: DELETE some, or DELETE /__mockapi/scenarios")
        }
        // Keys the client does not send (timestamps, counts) keep the fixture's values, so the item has its full shape.
        var item = Self.overlay(resource.shape?.objectValue ?? JSONObject(), written)
        let id: JSONValue
        switch resource.idStyle {
        case .uuid:
            id = .string(AnswerValues.randomUUID())
        case .sequential:
            collection.lastID += 1
            // The id keeps the fixture's type: a client decoding `String` ids gets "7", not 7.
            let textual: Bool = if case .string? = resource.shape?.objectValue?[resource.idKey] { true } else { false }
            id = textual ? .string(String(collection.lastID)) : .int(collection.lastID)
        }
        item[resource.idKey] = id
        if let violations = shapeViolations(of: item) { return .invalid(violations) }
        collection.items.append(.object(item))
        return .body(.object(item))
    }

    /// What a write would break of the stored items' shape (a key dropped, a type changed, a value
    /// made null), as violations of the body; nil when it keeps the shape. The id is the store's.
    private func shapeViolations(of item: JSONObject) -> [Violation]? {
        guard var shape = resource.shape?.objectValue else { return nil }
        var item = item
        shape[resource.idKey] = nil
        item[resource.idKey] = nil
        var comparison = JSONShapeComparison(missing: "would be removed from the stored item", extra: "is new")
        comparison.compare(.object(shape), .object(item), at: "body")
        let breaking = comparison.differences.filter(\.breaking)
        guard !breaking.isEmpty else { return nil }
        return breaking.map { Violation($0.path, "\($0.message): \(resource.name) items keep the shape of their fixture") }
    }

    /// `written`'s keys over `item`'s; the keys it leaves out keep their values.
    static func overlay(_ item: JSONObject, _ written: JSONObject) -> JSONObject {
        var result = item
        for (key, value) in written.members { result[key] = value }
        return result
    }

    /// RFC 7396: `null` removes a key, an object merges into the object it replaces.
    static func mergePatch(_ item: JSONObject, _ patch: JSONObject) -> JSONObject {
        var result = item
        for (key, value) in patch.members {
            switch value {
            case .null:
                result[key] = nil
            case .object(let nested):
                result[key] = .object(mergePatch(result[key]?.objectValue ?? JSONObject(), nested))
            default:
                result[key] = value
            }
        }
        return result
    }
}
