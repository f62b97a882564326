import CMicroHTTPD

/// Reads a connection's headers or query arguments, in arrival order.
enum ConnectionValues {
    typealias Pairs = [(name: String, value: String?)]

    /// `expected`: room to reserve up front (headers almost always come several at a time,
    /// query arguments mostly not at all).
    static func pairs(_ connection: OpaquePointer, kind: MHD_ValueKind, expected: Int = 0) -> Pairs {
        var pairs: Pairs = []
        if expected > 0 { pairs.reserveCapacity(expected) }
        // The array itself is the callback's context: no box object per call.
        withUnsafeMutablePointer(to: &pairs) { pointer in
            _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
                guard let context, let key else { return .YES }
                context.assumingMemoryBound(to: Pairs.self).pointee.append((String(cString: key), value.map { String(cString: $0) }))
                return .YES
            }, pointer)
        }
        return pairs
    }
}
