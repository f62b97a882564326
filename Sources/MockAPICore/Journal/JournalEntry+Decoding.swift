/// Reading back what `GET /__mockapi/requests` writes (`JournalEntry.json`), for a reader in
/// another process: the contract runner and `mockapi coverage` against a running server.
extension JournalEntry {
    /// Why a journal page cannot be read.
    package struct Unreadable: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// One entry; nil when a member is missing or has another type.
    package init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        let reader = JSONMembers(object)
        guard let id = reader.int("id") ?? nil, let receivedAt = reader.int("receivedAt") ?? nil,
            let method = reader.string("method") ?? nil, let path = reader.string("path") ?? nil,
            let query = reader.string("query") ?? nil, let bodyBytes = reader.int("bodyBytes") ?? nil,
            let status = reader.int("status") ?? nil, let headerObject = object["headers"]?.objectValue,
            let parts = reader.array("parts", ReceivedPart.init(json:)) ?? nil,
            let contract = reader.string("contract"), let response = reader.string("response"),
            let problem = reader.string("problem")
        else { return nil }
        var headers = HeaderFields()
        for (name, value) in headerObject.members {
            guard let value = value.stringValue else { return nil }
            headers.append(name: name, value: value)
        }
        self.init(
            receivedAt: Int64(receivedAt), method: method, path: path, query: query, headers: headers, bodyBytes: bodyBytes,
            parts: parts, contract: contract, response: response, status: status, problem: problem)
        self.id = id
    }

    /// A page of the journal as the admin endpoint answers it: a JSON array of entries.
    package static func page(from body: some Collection<UInt8>) throws(Unreadable) -> [JournalEntry] {
        let json: JSONValue
        do { json = try JSONParser.parse(body) } catch { throw Unreadable(description: "the journal is not JSON: \(error)") }
        guard let elements = json.arrayValue else { throw Unreadable(description: "the journal is not a JSON array") }
        var entries: [JournalEntry] = []
        entries.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let entry = JournalEntry(json: element) else { throw Unreadable(description: "journal entry \(index) is not an entry") }
            entries.append(entry)
        }
        return entries
    }
}

extension ReceivedPart {
    package var json: JSONValue {
        ["name": .string(name), "filename": filename.json, "contentType": contentType.json, "bytes": .int(bytes), "sha256": .string(sha256)]
    }

    package init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        let reader = JSONMembers(object)
        guard let name = reader.string("name") ?? nil, let bytes = reader.int("bytes") ?? nil, let sha256 = reader.string("sha256") ?? nil,
            let filename = reader.string("filename"), let contentType = reader.string("contentType")
        else { return nil }
        self.init(name: name, filename: filename, contentType: contentType, bytes: bytes, sha256: sha256)
    }
}
