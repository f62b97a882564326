import SystemLibc

/// A streaming multipart/form-data parser: feed it body chunks as they arrive and it reports
/// part headers, part bytes and part ends, holding back only what could be a split boundary.
///
/// Nothing is buffered beyond one part's headers (bounded) and a boundary's length, so an
/// upload of any size passes through in constant memory.
package struct MultipartParser {
    package struct PartHeaders: Sendable, Equatable {
        package var name: String
        package var filename: String?
        package var contentType: String?
    }

    package enum Event {
        case begin(PartHeaders)
        case data(UnsafeRawBufferPointer)
        case end
    }

    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Part headers larger than this are refused.
    package static let maximumHeaderBytes = 16 * 1024

    private enum State {
        /// Before the first boundary (a preamble is allowed and ignored).
        case preamble
        /// Just after a boundary: `\r\n` starts a part, `--` ends the body.
        case afterBoundary
        case headers
        case body
        case finished
    }

    private let delimiter: [UInt8]
    /// `--BOUNDARY--`: the closing delimiter, which some clients write with no CRLF before it.
    private let bareClosing: [UInt8]
    private var state = State.preamble
    private var pending: [UInt8] = []
    private var sawBoundary = false
    /// The body's first bytes, for saying what came instead of a boundary.
    private var bodyStart: [UInt8] = []
    /// The part being read and its bytes so far, for what an error says.
    private var currentPart: String?
    private var currentPartBytes = 0

    /// The boundary from the request's `Content-Type`.
    package init(boundary: String) throws(Failure) {
        guard !boundary.isEmpty, boundary.utf8.count <= 70 else {
            throw Failure(description: "the multipart boundary must be 1 to 70 characters")
        }
        delimiter = Array("\r\n--\(boundary)".utf8)
        bareClosing = Array("--\(boundary)--".utf8)
        // The first boundary has no CRLF before it; pretend it does so one search finds them all.
        pending = [0x0D, 0x0A]
    }

    package var isFinished: Bool { if case .finished = state { true } else { false } }

    package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (Event) -> Void) throws(Failure) {
        if case .finished = state { return }
        if bodyStart.count < 40 { bodyStart += chunk.prefix(40 - bodyStart.count) }
        pending.append(contentsOf: chunk)
        try drain(handle)
    }

    /// Call when the body has ended; throws, saying where, if it ended inside a part or never
    /// had a boundary.
    ///
    /// A last part followed by `--BOUNDARY--` without the CRLF before it (as a widely used iOS
    /// client writes it) is accepted: the part's bytes are still unambiguous.
    package mutating func finish(_ handle: (Event) -> Void) throws(Failure) {
        switch state {
        case .finished:
            return
        case .preamble:
            let start = String(decoding: bodyStart, as: UTF8.self).debugDescription
            throw Failure(description: "no part starts with the boundary given in Content-Type, \"--\(boundaryText)\" (the body starts \(start))")
        case .body:
            var end = pending.count
            while end > 0, [0x0D, 0x0A, 0x20, 0x09].contains(pending[end - 1]) { end -= 1 }
            if end >= bareClosing.count, pending[(end - bareClosing.count)..<end].elementsEqual(bareClosing) {
                emitData(0, end - bareClosing.count, handle)
                handle(.end)
                pending.removeAll()
                state = .finished
                return
            }
            if end >= delimiter.count, pending[(end - delimiter.count)..<end].elementsEqual(delimiter) {
                throw Failure(description: missingClosingDashes)
            }
            let received = currentPartBytes + pending.count
            throw Failure(
                description:
                    "the body ended inside part \"\(currentPart ?? "?")\" after about \(received) bytes, with no closing \"--\(boundaryText)--\" (a truncated upload, or a Content-Length larger than the body)"
            )
        case .headers where pending.allSatisfy({ [0x0D, 0x0A, 0x20, 0x09].contains($0) }), .afterBoundary where pending.isEmpty:
            // `--BOUNDARY` and nothing after it: the client left out the closing `--`, not a part.
            throw Failure(description: missingClosingDashes)
        case .headers:
            throw Failure(description: "the body ended inside the headers of a part (no blank line after them)")
        case .afterBoundary:
            throw Failure(description: "the body ended right after a boundary, with neither \"--\" (the end) nor CRLF (a new part)")
        }
    }

    private var missingClosingDashes: String {
        "the body ended without its closing \"--\(boundaryText)--\": its last boundary has no \"--\" after it"
    }

    private var boundaryText: String { String(decoding: bareClosing.dropFirst(2).dropLast(2), as: UTF8.self) }

    private mutating func drain(_ handle: (Event) -> Void) throws(Failure) {
        var consumed = 0
        defer { if consumed > 0 { pending.removeFirst(consumed) } }
        while true {
            switch state {
            case .finished:
                consumed = pending.count
                return
            case .preamble, .body:
                guard let found = nextBoundary(from: consumed) else {
                    // No boundary yet: everything but a possible partial delimiter (or a closing
                    // `--BOUNDARY--\r\n` written without its CRLF before it) is data.
                    let dataEnd = max(consumed, pending.count - (delimiter.count + 4))
                    emitData(consumed, dataEnd, handle)
                    consumed = dataEnd
                    return
                }
                emitData(consumed, found.index, handle)
                consumed = found.index
                guard found.complete else { return }
                if case .body = state { handle(.end) }
                consumed = found.index + delimiter.count
                state = .afterBoundary
            case .afterBoundary:
                guard pending.count - consumed >= 2 else { return }
                let first = pending[consumed], second = pending[consumed + 1]
                if first == UInt8(ascii: "-"), second == UInt8(ascii: "-") {
                    state = .finished
                } else if first == 0x0D, second == 0x0A {
                    consumed += 2
                    state = .headers
                } else {
                    // Transport padding (spaces/tabs) may follow a boundary before its CRLF.
                    guard first == 0x20 || first == 0x09 else { throw Failure(description: "unexpected bytes after a boundary") }
                    consumed += 1
                }
            case .headers:
                // Checked whether or not the headers' end has arrived: a single chunk can hold them whole.
                let end = indexOf([0x0D, 0x0A, 0x0D, 0x0A], from: consumed)
                if (end ?? pending.count) - consumed > Self.maximumHeaderBytes {
                    throw Failure(description: "part headers are longer than \(Self.maximumHeaderBytes) bytes")
                }
                guard let end else { return }
                let headers = try Self.parseHeaders(pending[consumed..<end])
                currentPart = headers.name
                currentPartBytes = 0
                handle(.begin(headers))
                consumed = end + 4
                state = .body
            }
        }
    }

    /// The next delimiter that really is a boundary: followed by `--`, CRLF or padding. A
    /// delimiter-like run followed by anything else is part data. `complete` is false when the
    /// bytes that decide have not arrived yet.
    private func nextBoundary(from start: Int) -> (index: Int, complete: Bool)? {
        var searchFrom = start
        while let index = indexOf(delimiter, from: searchFrom) {
            let after = index + delimiter.count
            guard after + 2 <= pending.count else { return (index, false) }
            let first = pending[after], second = pending[after + 1]
            let endsBody = first == UInt8(ascii: "-") && second == UInt8(ascii: "-")
            let startsPart = (first == 0x0D && second == 0x0A) || first == 0x20 || first == 0x09
            if endsBody || startsPart { return (index, true) }
            searchFrom = index + 1
        }
        return nil
    }

    private mutating func emitData(_ start: Int, _ end: Int, _ handle: (Event) -> Void) {
        guard case .body = state, end > start else { return }
        currentPartBytes += end - start
        pending.withUnsafeBytes { handle(.data(UnsafeRawBufferPointer(rebasing: $0[start..<end]))) }
    }

    /// Where `needle` next starts in `pending`, from `start`. Candidates are found with `memchr`
    /// (vectorized in libc): a byte-by-byte loop over an upload's every byte cost as much as a
    /// fifth of hashing it.
    private func indexOf(_ needle: [UInt8], from start: Int) -> Int? {
        pending.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { needle -> Int? in
                guard let base = haystack.baseAddress, !needle.isEmpty, haystack.count >= needle.count else { return nil }
                let last = haystack.count - needle.count // the last index a match can start at
                var index = start
                while index <= last {
                    guard let found = memchr(base + index, Int32(needle[0]), last - index + 1) else { return nil }
                    index = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + index, needle.baseAddress!, needle.count) == 0 { return index }
                    index += 1
                }
                return nil
            }
        }
    }

    static func parseHeaders(_ bytes: ArraySlice<UInt8>) throws(Failure) -> PartHeaders {
        let text = String(decoding: bytes, as: UTF8.self)
        var name: String?
        var filename: String?
        var contentType: String?
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "malformed part header \"\(line)\"") }
            let field = line[..<colon].trimmingWhitespace().lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            switch field {
            case "content-disposition":
                guard MediaType.essence(of: value) == "form-data" else { throw Failure(description: "part disposition is not form-data: \"\(value)\"") }
                name = MediaType.parameter("name", in: value)
                filename = MediaType.parameter("filename", in: value)
            case "content-type":
                contentType = value
            default:
                continue
            }
        }
        // `name=""` is a name (a form field whose key is empty, which a schema open to other keys
        // allows); only a part that names none is malformed.
        guard let name else { throw Failure(description: "a part has no name in its Content-Disposition header") }
        return PartHeaders(name: name, filename: filename, contentType: contentType)
    }
}
