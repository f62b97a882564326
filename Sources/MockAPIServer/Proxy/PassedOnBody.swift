import CCurlShims
import CMicroHTTPD
import MockAPICore

/// A target's answer body on its way to the client: libmicrohttpd's content reader takes what
/// the forwarding thread has put in the exchange's ring (`CCurlShims_Stream`).
///
/// When the ring is empty the reader parks the connection (`MHD_suspend_connection`, allowed
/// from a content reader) and returns 0; the forwarding thread wakes it when bytes, the end or a
/// failure come. Returning 0 without parking would make MHD ask again at once, a busy loop in
/// its polling thread. The sweep of `Suspensions` wakes a parked connection whose client left,
/// and stopping the server wakes them all: either way the reader then ends the answer with an
/// error, so MHD closes the connection rather than leave it hanging.
///
/// A failure after the head went out (the target closed mid-body, went quiet past
/// `--proxy-timeout`) closes the client's connection: a length that falls short, or a chunked
/// body with no last chunk, tells the client the answer is incomplete.
final class PassedOnBody: @unchecked Sendable {
    // Why unchecked: the stream is locked in C; `connection` is only resumed across threads,
    // which MHD allows.
    private let stream: OpaquePointer
    private let connection: MHDConnection
    private let suspensions: Suspensions
    /// Who parks the connection while the ring is empty (see `Suspensions`).
    private let owner = ParkingOwner()
    /// The target's `Content-Length` (sent on, so a client sees a short body as one); nil: chunked.
    private let length: UInt64?

    init(_ stream: Forwarder.StreamHandle, length: UInt64?, connection: MHDConnection, suspensions: Suspensions) {
        CCurlShims_stream_retain(stream.pointer)
        self.stream = stream.pointer
        self.length = length
        self.connection = connection
        self.suspensions = suspensions
    }

    /// Nobody reads any more (the answer was sent or dropped): the forwarding thread stops
    /// waiting for room and ends the exchange.
    deinit {
        CCurlShims_stream_cancel(stream)
        CCurlShims_stream_release(stream)
    }

    /// Wakes the connection the reader parked (called on the forwarding thread).
    var readable: @Sendable () -> Void {
        { [connection, suspensions, owner] in suspensions.resume(connection, owner: owner) }
    }

    /// The MHD response that sends this body; MHD holds this object until it is done with it.
    func response(contentType: String?, headers: [HTTPField]) -> OpaquePointer {
        let response = MHDResponse.streamed(
            length: length, context: Unmanaged.passRetained(self).toOpaque(), read: Self.read, free: Self.free)
        if let contentType { MHDResponse.addHeaders([HTTPField("Content-Type", contentType)], to: response) }
        MHDResponse.addHeaders(headers, to: response)
        return response
    }

    private static let read: MHD_ContentReaderCallback = { cls, _, buffer, max in
        guard let cls, let buffer else { return -2 } // MHD_CONTENT_READER_END_WITH_ERROR
        return Unmanaged<PassedOnBody>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.fill(buffer, max: max) }
    }

    private static let free: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<PassedOnBody>.fromOpaque(cls).release()
    }

    private static let park: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 0 }
        return Unmanaged<PassedOnBody>.fromOpaque(context)._withUnsafeGuaranteedRef { body in
            body.suspensions.suspend(body.connection, owner: body.owner) ? 1 : 0
        }
    }

    /// Bytes for MHD, -1 (MHD_CONTENT_READER_END_OF_STREAM) at the end, -2 to close the connection.
    private func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        // Woken by the sweep (the client left) or by the server stopping: end here.
        if suspensions.wasAbandoned(connection, owner: owner) { return -2 }
        return CCurlShims_stream_read(stream, buffer, max, Self.park, Unmanaged.passUnretained(self).toOpaque())
    }
}
