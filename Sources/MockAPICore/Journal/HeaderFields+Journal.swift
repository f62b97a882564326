extension HeaderFields {
    /// The longest header value the journal keeps; longer ones are cut to this many bytes and end
    /// in `…[truncated, N bytes]` (N: the value's full length).
    package static let journalValueLimit = 4 * 1024

    /// The headers as the journal stores them: credentials redacted as `redaction` says
    /// (`HeaderRedaction`), long values cut. Returns `self`, uncopied, when nothing needs
    /// changing, which is the common case: one scan of the names and lengths. Otherwise the
    /// fields are written straight into one buffer (`journaledCopy`): no String per header (made
    /// through Strings and appended one by one, a request with an `Authorization` header cost
    /// about 28,000 instructions more than one without).
    package func forJournal(redacting redaction: HeaderRedaction) -> HeaderFields {
        withPackedBytes { Self.journaledCopyIfChanged(packed: $0, redacting: redaction) } ?? self
    }

    /// `forJournal`'s copy of headers in this layout (a `HeaderFields`' packed bytes, or the
    /// server's scratch copy of a head), or nil when the journal keeps them as they came.
    static func journaledCopyIfChanged(packed buffer: UnsafeRawBufferPointer, redacting redaction: HeaderRedaction) -> HeaderFields? {
        firstChangeForJournal(packed: buffer, redacting: redaction).map { journaledCopy(packed: buffer, redacting: redaction, from: $0) }
    }

    /// The copy, once the first field it changes is found (`firstChangeForJournal`): the fields
    /// before it are copied as they are, unchecked again. One pass into a buffer with room for
    /// the most a field can grow: a redacted value is at most 10 bytes longer (`[redacted]` for
    /// an empty one), a cut one 40 (its note, past 4,096 bytes).
    private static func journaledCopy(packed buffer: UnsafeRawBufferPointer, redacting redaction: HeaderRedaction, from start: Int) -> HeaderFields {
        let unchanged = UnsafeRawBufferPointer(rebasing: buffer[..<min(start, buffer.count)])
        let rest = UnsafeRawBufferPointer(rebasing: buffer[unchanged.count...])
        var fields = 0
        Self.forEachField(in: rest) { _, _ in
            fields += 1
            return true
        }
        return HeaderFields(capacity: buffer.count + fields * Self.largestGrowth) { out in
            guard let base = out.baseAddress else { return 0 }
            if let source = unchanged.baseAddress { base.copyMemory(from: source, byteCount: unchanged.count) }
            var offset = unchanged.count
            var fits = true
            Self.forEachField(in: rest) { name, value in
                // Never past the room, even if a field grew more than `largestGrowth` says.
                guard offset + Self.lengthsSize + name.count + value.count + Self.largestGrowth <= out.count else {
                    fits = false
                    return false
                }
                let lengths = offset
                offset += Self.lengthsSize
                if let source = name.baseAddress { (base + offset).copyMemory(from: source, byteCount: name.count) }
                offset += name.count
                var valueLength = 0
                Self.journaledValue(name: name, value: value, redaction) { piece in
                    if let source = piece.baseAddress { (base + offset).copyMemory(from: source, byteCount: piece.count) }
                    offset += piece.count
                    valueLength += piece.count
                }
                base.storeBytes(of: UInt32(name.count), toByteOffset: lengths, as: UInt32.self)
                base.storeBytes(of: UInt32(valueLength), toByteOffset: lengths + 4, as: UInt32.self)
                return true
            }
            return fits ? offset : out.count * 2 + 1
        }
    }

    /// The most a field's value grows as the journal keeps it (see `journaledCopy`).
    private static let largestGrowth = 64

    /// A header's value as the journal keeps it, handed to `emit` in pieces: redacted (the
    /// scheme of an `Authorization` kept, `HeaderRedaction.keptScheme`), cut past
    /// `journalValueLimit` with a note of its length, or as it came.
    private static func journaledValue(
        name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, _ redaction: HeaderRedaction, _ emit: (UnsafeRawBufferPointer) -> Void
    ) {
        if redaction.redacts(name) {
            if let scheme = HeaderRedaction.keptScheme(name: name, value: value) {
                emit(scheme)
                emit(bytes(" [redacted]"))
            } else {
                emit(bytes("[redacted]"))
            }
        } else if value.count > journalValueLimit {
            emit(UnsafeRawBufferPointer(rebasing: value[..<journalValueLimit]))
            var note = "…[truncated, \(value.count) bytes]"
            note.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
        } else {
            emit(value)
        }
    }

    private static func bytes(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Where the first field `forJournal` changes (a header to redact or cut) starts in the
    /// packed bytes; nil when none does. One pass over the names and lengths, with no closure
    /// and no copy of the headers, for the request path.
    private static func firstChangeForJournal(packed buffer: UnsafeRawBufferPointer, redacting redaction: HeaderRedaction) -> Int? {
        var offset = 0
        while offset + 8 <= buffer.count {
            let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let valueLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let name = UnsafeRawBufferPointer(start: buffer.baseAddress! + offset + 8, count: nameLength)
            if valueLength > journalValueLimit || redaction.redacts(name) { return offset }
            offset += 8 + nameLength + valueLength
        }
        return nil
    }

    /// The standard redaction (`HeaderRedaction.standard`), or none when `keepingSecrets`.
    package func forJournal(keepingSecrets: Bool) -> HeaderFields {
        forJournal(redacting: keepingSecrets ? .off : .standard)
    }
}
