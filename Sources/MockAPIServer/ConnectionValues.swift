import CMicroHTTPD

/// Reads a connection's headers or query arguments, in arrival order.
enum ConnectionValues {
    private final class Collector {
        var pairs: [(name: String, value: String?)] = []
    }

    static func pairs(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String?)] {
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return .YES }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            collector.pairs.append((String(cString: key), value.map { String(cString: $0) }))
            return .YES
        }, context)
        return withExtendedLifetime(collector) { collector.pairs }
    }
}
