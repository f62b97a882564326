extension HeaderFields {
    /// The longest header value the journal keeps; longer ones are cut to this many bytes and end
    /// in `…[truncated, N bytes]` (N: the value's full length).
    package static let journalValueLimit = 4 * 1024

    /// The headers as the journal stores them: credentials redacted as `redaction` says
    /// (`HeaderRedaction`), long values cut. Returns `self`, uncopied, when nothing needs
    /// changing, which is the common case: one scan of the names and lengths.
    package func forJournal(redacting redaction: HeaderRedaction) -> HeaderFields {
        guard changeForJournal(redacting: redaction) else { return self }
        var journaled = HeaderFields()
        withPackedBytes { buffer in
            forEachField(in: buffer) { name, value in
                let nameText = String(decoding: name, as: UTF8.self)
                if redaction.redacts(name) {
                    journaled.append(name: nameText, value: HeaderRedaction.redacted(name: name, value: String(decoding: value, as: UTF8.self)))
                } else if value.count > Self.journalValueLimit {
                    let kept = String(decoding: UnsafeRawBufferPointer(rebasing: value[..<Self.journalValueLimit]), as: UTF8.self)
                    journaled.append(name: nameText, value: kept + "…[truncated, \(value.count) bytes]")
                } else {
                    journaled.append(name: nameText, value: String(decoding: value, as: UTF8.self))
                }
                return true
            }
        }
        return journaled
    }

    /// Whether `forJournal` changes anything (a header to redact or cut): one pass over the names
    /// and lengths, with no closure and no copy of the headers, for the request path.
    package func changeForJournal(redacting redaction: HeaderRedaction) -> Bool {
        withPackedBytes { buffer in
            var offset = 0
            while offset + 8 <= buffer.count {
                let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let valueLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                let name = UnsafeRawBufferPointer(start: buffer.baseAddress! + offset + 8, count: nameLength)
                if valueLength > Self.journalValueLimit || redaction.redacts(name) { return true }
                offset += 8 + nameLength + valueLength
            }
            return false
        }
    }

    /// The standard redaction (`HeaderRedaction.standard`), or none when `keepingSecrets`.
    package func forJournal(keepingSecrets: Bool) -> HeaderFields {
        forJournal(redacting: keepingSecrets ? .off : .standard)
    }
}
