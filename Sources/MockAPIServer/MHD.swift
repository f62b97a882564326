import CMicroHTTPD
import CMicroHTTPDShims
import MockAPICore
import SystemLibc

// libmicrohttpd, bound here: every MHD_* and CMicroHTTPDShims_* function the server calls is
// called from this file, through the three types below. Each is its C pointer and nothing more
// (no allocation, no lock, no indirection), and each method is one C call the optimizer inlines.
//
// Why `MHDConnection` and `MHDDaemon` are `@unchecked Sendable`, written once: libmicrohttpd
// documents resuming a suspended connection, and quiescing and stopping a daemon, as safe from
// any thread; a timer, a backend's reply and `stop()` do exactly that. Swift cannot see it in a
// C pointer. Every other call on a connection happens in MHD's callbacks for it, on its thread.

/// A connection, as MHD hands it to the access handler (`MHD_Connection *`).
struct MHDConnection: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer

    @inline(__always) init(_ pointer: OpaquePointer) { self.pointer = pointer }

    /// Queues `response` (MHD keeps its own reference) with this status.
    @inline(__always) func queue(_ response: OpaquePointer, status: Int) -> MHD_Result {
        MHD_queue_response(pointer, UInt32(status), response)
    }

    /// Queues a response made for this request, and lets it go (MHD holds it until it is sent).
    func queue(_ response: GeneratedResponse) -> MHD_Result {
        let made = MHDResponse.make(response)
        defer { MHDResponse.destroy(made) }
        return queue(made, status: response.status)
    }

    /// Parks the connection: MHD calls back again only after `resume()`.
    func suspend() { MHD_suspend_connection(pointer) }
    func resume() { MHD_resume_connection(pointer) }

    /// Request headers in arrival order, copied as bytes in one C call, into the buffer the
    /// thread slot keeps when the previous request is done with it; `scan` gets what the copy
    /// saw of them (`CMicroHTTPDShims_HeadScan`).
    @inline(__always) func headers(spareSlot: Int, scan: inout CMicroHTTPDShims_HeadScan) -> HeaderFields {
        // Room for a typical client's headers; more is asked for when they need it.
        HeaderFields(capacity: 512, spareSlot: spareSlot) { buffer in
            CMicroHTTPDShims_copy_headers(pointer, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count, &scan)
        }
    }

    /// The same bytes in the worker thread's scratch buffer, read only within this callback (the
    /// thread's next request overwrites them); nil when they do not fit it (`RequestHandler.beginRequest`).
    @inline(__always) func scratchHeaders(scan: inout CMicroHTTPDShims_HeadScan) -> UnsafeRawBufferPointer? {
        var size = 0
        guard let scratch = CMicroHTTPDShims_copy_headers_to_scratch(pointer, &size, &scan) else { return nil }
        return UnsafeRawBufferPointer(start: scratch, count: size)
    }

    /// The socket, or -1.
    var descriptor: Int32 { CMicroHTTPDShims_connection_fd(pointer) }

    /// Bytes written on the connection itself (through its TLS session on HTTPS); what `send` returns.
    func send(_ bytes: UnsafeRawPointer?, count: Int) -> Int { CMicroHTTPDShims_connection_send(pointer, bytes, count) }

    // What the header-deadline watchdog (`header_deadline.c`) is told of the connection: the
    // request's headers are in (which returns the connection's watch, nil without a watchdog), and
    // then, through that watch, its body's bytes, its answer decided, and its end.
    @inline(__always) func headersArrived() -> ConnectionWatch? { CMicroHTTPDShims_headers_arrived(pointer) }
    @inline(__always) static func answering(_ watch: ConnectionWatch?) { CMicroHTTPDShims_answering(watch) }
    @inline(__always) static func bodyReceived(_ count: Int, _ watch: ConnectionWatch?) { CMicroHTTPDShims_body_received(watch, count) }
    @inline(__always) static func awaitingHeaders(_ watch: ConnectionWatch?) { CMicroHTTPDShims_awaiting_headers(watch) }
    /// The thread slot kept with a connection's watch, -1 before one is kept (and without a watch).
    @inline(__always) static func slot(_ watch: ConnectionWatch?) -> Int { CMicroHTTPDShims_watch_slot(watch) }
    @inline(__always) static func keepSlot(_ slot: Int, _ watch: ConnectionWatch?) { CMicroHTTPDShims_watch_set_slot(watch, slot) }
    /// The same for a connection whose request left no watch (refused before it began).
    @inline(__always) func awaitingHeaders() { CMicroHTTPDShims_connection_awaiting_headers(pointer) }

    /// The watch a request answered from its head holds its answer on
    /// (`RequestHandler.answerAtHead`); nil when the state is anything else.
    @inline(__always) static func heldWatch(in state: UnsafeMutableRawPointer?) -> ConnectionWatch? {
        CMicroHTTPDShims_held_watch(state)
    }

    /// Queues the answer held on `watch`.
    @inline(__always) func queueHeldAnswer(_ watch: ConnectionWatch) -> MHD_Result { CMicroHTTPDShims_queue_held_answer(pointer, watch) }

    /// The query copy `CMicroHTTPDShims_take_query` left in a request's state before its first
    /// access call (free it with `free`); nil when the state is a request context.
    @inline(__always) static func query(in state: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<MHDQuery>? {
        CMicroHTTPDShims_query(state)
    }
}

/// The watchdog's record of a connection (`header_deadline.c`), valid while MHD holds it open.
typealias ConnectionWatch = UnsafeMutableRawPointer

/// A request's query as `CMicroHTTPDShims_take_query` copied it: its length, then its bytes.
typealias MHDQuery = CMicroHTTPDShims_Query

/// Responses MHD owns (`MHD_Response *`): made from Swift values, shared by every thread once
/// made, destroyed when no longer queued.
enum MHDResponse {
    /// A response MHD owns (it copies the bytes), with headers added.
    static func make(body: [UInt8], contentType: String?, headers: [HTTPField]) -> OpaquePointer {
        let response = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }!
        if let contentType { MHD_add_response_header(response, "Content-Type", contentType) }
        addHeaders(headers, to: response)
        return response
    }

    static func make(_ generated: GeneratedResponse) -> OpaquePointer {
        let contentType = generated.contentType.isEmpty ? nil : generated.contentType
        switch generated.framing {
        case .body:
            return make(body: generated.body, contentType: contentType, headers: generated.headers, status: generated.status)
        case .stated(let length):
            return headOnly(CMicroHTTPDShims_response_without_body(UInt64(max(0, length)))!, contentType: contentType, headers: generated.headers)
        case .unstated:
            return headOnly(CMicroHTTPDShims_response_without_length()!, contentType: contentType, headers: generated.headers)
        }
    }

    /// A response MHD owns, for `status`: an empty 304 states no length (MHD 0.9.75 would write
    /// `Content-Length: 0`, which RFC 9110 §8.6 forbids unless the 200 is empty too).
    static func make(body: [UInt8], contentType: String?, headers: [HTTPField], status: Int) -> OpaquePointer {
        guard status == 304, body.isEmpty else { return make(body: body, contentType: contentType, headers: headers) }
        return headOnly(CMicroHTTPDShims_response_without_length()!, contentType: contentType, headers: headers)
    }

    private static func headOnly(_ response: OpaquePointer, contentType: String?, headers: [HTTPField]) -> OpaquePointer {
        if let contentType { MHD_add_response_header(response, "Content-Type", contentType) }
        addHeaders(headers, to: response)
        return response
    }

    /// A chunked response of unknown length whose body `read` fills in 32 KiB blocks from `context`;
    /// MHD calls `free` with it once the response is done.
    /// `length`: the body's, when known (MHD sends it as `Content-Length`), instead of chunks.
    static func streamed(
        length: UInt64? = nil, context: UnsafeMutableRawPointer, read: MHD_ContentReaderCallback, free: MHD_ContentReaderFreeCallback
    ) -> OpaquePointer {
        MHD_create_response_from_callback(length ?? UInt64.max, 32 * 1024, read, context, free)!
    }

    static func addHeaders(_ headers: [HTTPField], to response: OpaquePointer) {
        for header in headers { MHD_add_response_header(response, header.name, header.value) }
    }

    /// Drops the caller's reference; MHD frees the response once no connection is sending it.
    static func destroy(_ response: OpaquePointer) { MHD_destroy_response(response) }

    /// "OK", "Not Found"…; empty for a status MHD does not name.
    static func reasonPhrase(_ status: Int) -> String {
        MHD_get_reason_phrase_for(UInt32(status)).map { String(cString: $0) } ?? ""
    }
}

/// A running daemon (`MHD_Daemon *`) and its header-deadline watchdog.
struct MHDDaemon: @unchecked Sendable {
    let pointer: OpaquePointer
    let headerDeadline: OpaquePointer?

    /// Why a daemon did not start.
    enum StartFailure: Error {
        case badHost
        case failed(errno: Int32)
    }

    /// Starts MHD on `host:port` with `flags` and `options` (ending in `.END`), calling `handler`'s
    /// access and completion callbacks with `context`. The watchdog always runs: besides the two
    /// limits it frees the slots of clients MHD missed leaving (`header_deadline.c`).
    static func start(
        flags: UInt32, host: String, port: UInt16, options: [MHD_OptionItem], context: UnsafeMutableRawPointer,
        headerTimeoutSeconds: Int, minBodyBytesPerSecond: Int, bodyRateGraceSeconds: Int, plainHTTP: Bool, connectionLimit: Int,
        perAddressLimit: Int
    ) throws(StartFailure) -> MHDDaemon {
        // The ranges were checked before (`ServerConfiguration.outOfRange`), so these conversions cannot trap.
        let headerDeadline = CMicroHTTPDShims_header_deadline_start(
            UInt32(headerTimeoutSeconds), UInt32(minBodyBytesPerSecond), UInt32(bodyRateGraceSeconds), plainHTTP ? 1 : 0,
            UInt32(connectionLimit), UInt32(perAddressLimit))
        var badHost: Int32 = 0
        errno = 0
        let started = options.withUnsafeBufferPointer { options in
            CMicroHTTPDShims_start_daemon(
                flags, host, port, RequestHandler.access, context,
                RequestHandler.completed, context, options.baseAddress, headerDeadline, &badHost)
        }
        guard let started else {
            let startErrno = errno
            CMicroHTTPDShims_header_deadline_stop(headerDeadline)
            throw badHost != 0 ? .badHost : .failed(errno: startErrno)
        }
        return MHDDaemon(pointer: started, headerDeadline: headerDeadline)
    }

    /// GnuTLS's reason when the two are not a usable PEM certificate and matching key for the
    /// daemon's HTTPS; nil when they are.
    static func tlsRefusal(certificatePEM: String, keyPEM: String) -> String? {
        let reason = certificatePEM.withCString { certificate in keyPEM.withCString { CMicroHTTPDShims_tls_check(certificate, $0) } }
        return reason.map { String(cString: $0) }
    }

    /// Large blocks go back to the system when freed (glibc's malloc; nothing elsewhere): call
    /// before the responses are built.
    static func returnLargeBlocksWhenFreed() { CMicroHTTPDShims_return_large_blocks() }

    var port: UInt16 { CMicroHTTPDShims_daemon_port(pointer) }

    /// Stops accepting; returns the listening socket for the caller to close (or -1).
    func quiesce() -> Int32 { MHD_quiesce_daemon(pointer) }

    /// Closes every connection and ends MHD's threads, then the watchdog.
    func stop() {
        MHD_stop_daemon(pointer)
        CMicroHTTPDShims_header_deadline_stop(headerDeadline)
    }
}
