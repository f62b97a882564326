import CMicroHTTPD
import CMicroHTTPDShims
import MockAPICore

/// Reads a connection's headers, in arrival order (query arguments are parsed from mockapi's own copy: `QueryString`).
enum ConnectionValues {
    /// Request headers in arrival order, copied as bytes in one C call.
    static func headers(_ connection: OpaquePointer) -> HeaderFields {
        // Room for a typical client's headers; more is asked for when they need it.
        HeaderFields(capacity: 512) { buffer in
            CMicroHTTPDShims_copy_headers(connection, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count)
        }
    }
}
