extension HeaderFields {
    /// The longest header value the journal keeps; longer ones are cut to this many bytes and end
    /// in `…[truncated, N bytes]` (N: the value's full length).
    public static let journalValueLimit = 4 * 1024

    /// The headers as the journal stores them: credentials (`Authorization`, `Proxy-Authorization`,
    /// `Cookie`) redacted unless `keepingSecrets`, long values cut. Returns `self`, uncopied, when
    /// nothing needs changing, which is the common case: one scan of the lengths.
    public func forJournal(keepingSecrets: Bool) -> HeaderFields {
        let needsChange = withPackedBytes { buffer in
            var found = false
            forEachField(in: buffer) { name, value in
                found = value.count > Self.journalValueLimit || (!keepingSecrets && Self.isCredential(name))
                return !found
            }
            return found
        }
        guard needsChange else { return self }
        var journaled = HeaderFields()
        withPackedBytes { buffer in
            forEachField(in: buffer) { name, value in
                let nameText = String(decoding: name, as: UTF8.self)
                if !keepingSecrets && Self.isCredential(name) {
                    journaled.append(name: nameText, value: Self.redacted(String(decoding: value, as: UTF8.self)))
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

    /// `token abc123` → `token [redacted]`: the scheme stays, so a reader still sees which kind
    /// of credential the client sent.
    static func redacted(_ value: String) -> String {
        guard let space = value.firstIndex(of: " ") else { return "[redacted]" }
        return value[..<space] + " [redacted]"
    }

    private static let credentialNames: [[UInt8]] = ["authorization", "proxy-authorization", "cookie"].map { Array($0.utf8) }

    private static func isCredential(_ name: UnsafeRawBufferPointer) -> Bool {
        credentialNames.contains { candidate in
            candidate.count == name.count && zip(candidate, name).allSatisfy { $0 == $1 | 0x20 }
        }
    }
}
