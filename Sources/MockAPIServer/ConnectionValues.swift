import CMicroHTTPD
import CMicroHTTPDShims
import MockAPICore

/// Reads a connection's headers or query arguments, in arrival order.
enum ConnectionValues {
    /// Query arguments in arrival order; a key without `=` has a nil value.
    static func arguments(_ connection: OpaquePointer) -> [(name: String, value: String?)] {
        // Asking for the count first (no iterator) skips the walk for the common query-less request.
        guard MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, nil, nil) > 0 else { return [] }
        var pairs: [(name: String, value: String?)] = []
        withUnsafeMutablePointer(to: &pairs) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { context, _, key, value in
                guard let context, let key else { return .YES }
                context.assumingMemoryBound(to: [(name: String, value: String?)].self).pointee
                    .append((String(cString: key), value.map { String(cString: $0) }))
                return .YES
            }, pointer)
        }
        return pairs
    }

    /// Request headers in arrival order, copied as bytes in one C call.
    static func headers(_ connection: OpaquePointer) -> HeaderFields {
        // Room for a typical client's headers; more is asked for when they need it.
        HeaderFields(capacity: 512) { buffer in
            CMicroHTTPDShims_copy_headers(connection, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
    }
}
