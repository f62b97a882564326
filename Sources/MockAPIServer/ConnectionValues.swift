import CMicroHTTPD
import MockAPICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Request headers in arrival order, copied as bytes.
    static func headers(_ connection: OpaquePointer) -> HeaderFields {
        var fields = HeaderFields()
        // The fields value itself is the callback's context: no box object per call.
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
                guard let context, let key else { return .YES }
                let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: strlen(key))
                let text = value.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)) }
                context.assumingMemoryBound(to: HeaderFields.self).pointee.append(name: name, value: text ?? UnsafeBufferPointer(start: nil, count: 0))
                return .YES
            }, pointer)
        }
        return fields
    }
}
