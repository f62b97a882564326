import MockAPICore

/// A request's headers while its head is read (the access handler's first call), in the worker
/// thread's scratch buffer (`MHDConnection.scratchHeaders`). A request answered from its head
/// (`RequestHandler.answerAtHead`, most mock traffic) is scanned and journaled from there and
/// never makes a `HeaderFields`: claiming the thread slot's buffer for one and counting its
/// references cost about 170 instructions a request. Any other request makes its `HeaderFields`
/// from those bytes (`fields`), to keep. A head too large for the scratch buffer is copied into
/// its `HeaderFields` at once.
struct HeadHeaders {
    /// In `HeaderFields`' packed layout: in the scratch buffer, valid within this callback only,
    /// or in `copied`'s storage, which stays where it is while `copied` holds it.
    let packed: UnsafeRawBufferPointer
    private var copied: HeaderFields?
    private let spareSlot: Int

    @inline(__always)
    init(_ connection: MHDConnection, spareSlot: Int) {
        self.spareSlot = spareSlot
        if let scratch = connection.scratchHeaders() {
            packed = scratch
            copied = nil
        } else {
            let fields = connection.headers(spareSlot: spareSlot)
            packed = fields.withPackedBytes { $0 }
            copied = fields
        }
    }

    /// The headers as a value that outlives the callback: made from the scratch bytes on the
    /// first call (into the thread slot's spare buffer, as `MHDConnection.headers` copies them).
    mutating func fields() -> HeaderFields {
        if let copied { return copied }
        let packed = packed
        let fields = HeaderFields(capacity: packed.count, spareSlot: spareSlot) { buffer in
            buffer.copyMemory(from: packed)
            return packed.count
        }
        copied = fields
        return fields
    }
}
