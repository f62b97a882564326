/// The set's resources, put together at load from the contracts' `resource` declarations: which
/// operation each contract is, where the list answer keeps its items, and what a stored item
/// looks like. Immutable; the items themselves live in a `ResourceStore`.
package struct ResourceTable: Sendable {
    package enum Operation: String, Sendable {
        case create, list, read, replace, merge, remove

        /// Whether the operation stores the request's JSON body.
        var writes: Bool { self == .create || self == .replace || self == .merge }
    }

    package struct Resource: Sendable {
        package let name: String
        package let idStyle: ResourceDeclaration.IDStyle
        package let idKey: String
        /// Segments in the collection's path: a request path cut there names its collection.
        package let collectionDepth: Int
        /// The list answer's fixture and where its items sit; nil when no contract lists.
        package let listing: (body: JSONValue, items: JSONPointer)?
        /// What every collection starts with: the list fixture's items.
        package let seed: [JSONValue]
        /// What a stored item must keep: the first seeded item, else the create answer's body.
        package let shape: JSONValue?
    }

    package private(set) var resources: [Resource] = []
    /// Per contract index: its resource and operation; nil for a contract that serves fixtures.
    private var operations: [(resource: Int, operation: Operation)?] = []

    package init() {}

    /// Contract `index`'s resource and operation; nil for a contract that serves fixtures.
    package func operation(of index: Int) -> (resource: Int, operation: Operation)? {
        operations.indices.contains(index) ? operations[index] : nil
    }

    /// The table for `contracts`, and what is wrong with their declarations (`file` is a
    /// contract's file as the user sees it).
    package init(contracts: [Contract], problems: inout [LoadProblem], file: (Contract) -> String) {
        operations = Array(repeating: nil, count: contracts.count)
        let files = contracts.map(file)
        var members: [String: [Int]] = [:]
        var names: [String] = []
        for (index, contract) in contracts.enumerated() {
            guard let name = contract.source?.resource?.name else { continue }
            if members[name] == nil { names.append(name) }
            members[name, default: []].append(index)
        }
        for name in names {
            var builder = Builder(name: name, contracts: contracts, members: members[name]!, files: files)
            if let resource = builder.build() {
                for (index, operation) in builder.operations { operations[index] = (resources.count, operation) }
                resources.append(resource)
            }
            problems += builder.problems
        }
    }

    /// Puts one resource together from its contracts, collecting what is wrong.
    private struct Builder {
        let name: String
        let contracts: [Contract]
        let members: [Int]
        /// Each contract's file as the user sees it.
        let files: [String]
        var problems: [LoadProblem] = []
        var operations: [(Int, Operation)] = []

        init(name: String, contracts: [Contract], members: [Int], files: [String]) {
            self.name = name
            self.contracts = contracts
            self.members = members
            self.files = files
        }

        mutating func problem(_ index: Int, _ path: String, _ message: String) {
            problems.append(LoadProblem(file: files[index], location: .jsonPath(path), message: "resource \"\(name)\": \(message)"))
        }

        mutating func build() -> Resource? {
            // The collection is the shortest path; every other is it plus one parameter (the id).
            let collectionIndex = members.min { contracts[$0].request.path.segments.count < contracts[$1].request.path.segments.count }!
            let collection = contracts[collectionIndex].request.path
            for index in members {
                let request = contracts[index].request
                guard let operation = operation(of: request, collection: collection, index: index) else { continue }
                if let (other, _) = operations.first(where: { $0.1 == operation }) {
                    problem(index, "$.resource", "contract \"\(contracts[other].name)\" is already its \(operation.rawValue) operation")
                    continue
                }
                if operation.writes, contracts[index].source?.json == nil {
                    problem(index, "$.request", "\(request.method.rawValue) \(operation.rawValue)s from the JSON body: declare request.json (with body.otherKeys to take any key)")
                }
                operations.append((index, operation))
            }
            let declaration = merged()
            let listing = listing(declaration)
            let create = operations.first { $0.1 == .create }.map { contracts[$0.0] }
            let createBody = create.flatMap { json(of: $0.responses[$0.defaultResponseIndex].body) }
            let seed = listing.flatMap { $0.items.value(in: $0.body)?.arrayValue } ?? []
            let shape = seed.first ?? createBody
            let idKey = declaration.idKey ?? "id"
            if declaration.id == .uuid, let id = shape?.objectValue?[idKey], id.stringValue == nil, let index = operations.first?.0 {
                problem(index, "$.resource.id", "uuid ids are strings, and the fixture's items have \(id.typeName) ids at \"\(idKey)\"")
            }
            guard problems.isEmpty else { return nil }
            return Resource(
                name: name, idStyle: declaration.id ?? .sequential, idKey: idKey,
                collectionDepth: collection.segments.count, listing: listing, seed: seed, shape: shape)
        }

        private mutating func operation(of request: RequestExpectation, collection: PathTemplate, index: Int) -> Operation? {
            let segments = request.path.segments
            let onCollection = segments.count == collection.segments.count
            let onItem = segments.count == collection.segments.count + 1
            let sameStem = zip(collection.segments, segments).allSatisfy(Self.sameSegment)
            guard sameStem, onCollection || (onItem && Self.isParameter(segments.last!)) else {
                problem(index, "$.request.path", "\(request.path) is neither the collection \(collection) nor \(collection)/{id}")
                return nil
            }
            switch (onCollection, request.method) {
            case (true, .POST): return .create
            case (true, .GET): return .list
            case (false, .GET): return .read
            case (false, .PUT): return .replace
            case (false, .PATCH): return .merge
            case (false, .DELETE): return .remove
            case (true, _):
                problem(index, "$.request.method", "on the collection \(collection) a resource takes POST (create) and GET (list), not \(request.method.rawValue)")
            case (false, _):
                problem(index, "$.request.method", "on an item a resource takes GET, PUT, PATCH and DELETE, not \(request.method.rawValue)")
            }
            return nil
        }

        /// Parameters match whatever their names: one contract may say `{id}` where another says `{draftId}`.
        private static func sameSegment(_ a: PathTemplate.Segment, _ b: PathTemplate.Segment) -> Bool {
            switch (a, b) {
            case (.literal(let x), .literal(let y)): x == y
            case (.parameter, .parameter): true
            default: false
            }
        }

        private static func isParameter(_ segment: PathTemplate.Segment) -> Bool {
            if case .parameter = segment { true } else { false }
        }

        /// The keys besides `name`, which any one contract may write; two that disagree are a problem.
        private mutating func merged() -> ResourceDeclaration {
            var merged = ResourceDeclaration(name: name)
            var from: [String: Int] = [:]
            func take<Value: Equatable>(_ key: WritableKeyPath<ResourceDeclaration, Value?>, _ label: String, _ index: Int, _ value: Value?) {
                guard let value else { return }
                if let existing = merged[keyPath: key], existing != value {
                    problem(index, "$.resource.\(label)", "\(value) here, \(existing) in contract \"\(contracts[from[label]!].name)\"")
                } else if merged[keyPath: key] == nil {
                    merged[keyPath: key] = value
                    from[label] = index
                }
            }
            for index in members {
                guard let declaration = contracts[index].source?.resource else { continue }
                take(\.id, "id", index, declaration.id)
                take(\.idKey, "idKey", index, declaration.idKey)
                take(\.items, "items", index, declaration.items)
            }
            return merged
        }

        /// The list answer's fixture and the pointer to its items, found when `items` is not written.
        private mutating func listing(_ declaration: ResourceDeclaration) -> (body: JSONValue, items: JSONPointer)? {
            guard let index = operations.first(where: { $0.1 == .list })?.0 else { return nil }
            let contract = contracts[index]
            let response = contract.responses[contract.defaultResponseIndex]
            guard let body = json(of: response.body) else {
                problem(index, "$.responses.\(response.name)", "the list answer must be a JSON fixture with the items in an array")
                return nil
            }
            if let written = declaration.items {
                guard let pointer = JSONPointer(written), pointer.value(in: body)?.arrayValue != nil else {
                    problem(index, "$.resource.items", "\"\(written)\" names no array in the list answer's fixture")
                    return nil
                }
                return (body, pointer)
            }
            if case .array = body { return (body, JSONPointer(tokens: [])) }
            let arrays = body.objectValue?.members.filter { $0.value.arrayValue != nil } ?? []
            guard arrays.count == 1 else {
                problem(index, "$.resource", "say where the list answer keeps its items: \"items\": \"/data\" (a JSON pointer)")
                return nil
            }
            return (body, JSONPointer(tokens: [arrays[0].key]))
        }

        private func json(of bytes: [UInt8]) -> JSONValue? {
            bytes.isEmpty ? nil : try? JSONParser.parse(bytes)
        }
    }
}
