/// A journal record's layout, the one place it is written: `write` lays a request's fields out in
/// this order and `read` takes them back in the same order, next to each other so a field added
/// to one is seen missing from the other (and `JournalRecordRoundTripTests` reads each field
/// back). `write` runs twice per request, once into a `RecordSizer` to learn the size to
/// reserve and once into the `RecordWriter` at the reserved bytes, so the size is what is
/// written by construction. The sinks' encoding (`RecordCoding`): an integer is 8 bytes, bytes or
/// text their count then themselves, a missing text the count -1.
///
///     id  receivedAt  status  bodyBytes            integers
///     method  path                                 text
///     query count, then per pair: name, value?     integer, then text
///     headers                                      HeaderFields' packed bytes (or the same bytes, unwrapped)
///     contract?  response?                         text
///     parts count, then per part: name, filename?, contentType?, bytes, sha256
///     problem?                                     text
enum JournalRecordLayout {
    /// A request's record under `id`, its query and headers as the journal keeps them (redacted:
    /// `query` nil when the request has none). The fields come spread out, as `RequestJournal`
    /// holds them (its `record(receivedAt:…)` says why).
    @inline(__always)
    static func write<Sink: RecordSink>(
        id: Int, receivedAt: Int64, status: Int, bodyBytes: Int, method: some RecordBytes, path: UnsafeRawBufferPointer, query: [QueryArgument]?,
        headers: some RecordBytes, contract: UnsafeRawBufferPointer?, response: UnsafeRawBufferPointer?, parts: [ReceivedPart],
        problem: String?, to sink: inout Sink
    ) {
        sink.int(id)
        sink.int(Int(receivedAt))
        sink.int(status)
        sink.int(bodyBytes)
        method.write(to: &sink)
        sink.bytes(path)
        sink.int(query?.count ?? 0)
        if let query {
            for argument in query {
                sink.string(argument.name)
                sink.optionalString(argument.value)
            }
        }
        headers.write(to: &sink)
        sink.optionalBytes(contract)
        sink.optionalBytes(response)
        sink.int(parts.count)
        if !parts.isEmpty {
            for part in parts {
                sink.string(part.name)
                sink.optionalString(part.filename)
                sink.optionalString(part.contentType)
                sink.int(part.bytes)
                sink.string(part.sha256)
            }
        }
        sink.optionalString(problem)
    }

    /// The entry a record written by `write` holds.
    static func read(_ record: UnsafeRawBufferPointer) -> JournalEntry {
        var reader = RecordReader(record)
        let id = reader.int()
        let receivedAt = Int64(reader.int())
        let status = reader.int()
        let bodyBytes = reader.int()
        let method = reader.string()
        let path = reader.string()
        let query = (0..<reader.int()).map { _ in QueryArgument(reader.string(), reader.optionalString()) }
        let headers = HeaderFields(packed: reader.bytes())
        let contract = reader.optionalString()
        let response = reader.optionalString()
        let parts = (0..<reader.int()).map { _ in
            ReceivedPart(
                name: reader.string(), filename: reader.optionalString(), contentType: reader.optionalString(),
                bytes: reader.int(), sha256: reader.string())
        }
        let problem = reader.optionalString()
        var entry = JournalEntry(
            receivedAt: receivedAt, method: method, path: path, query: JournalEntry.encodeQuery(query), headers: headers,
            bodyBytes: bodyBytes, parts: parts, contract: contract, response: response, status: status, problem: problem)
        entry.id = id
        return entry
    }
}
