/// Variable-length records, oldest first, packed back to back in one circular byte buffer.
///
/// Appending copies a record into memory next to the previous one (the journal drops the oldest
/// records first when its budget is spent), so keeping the last 10,000 requests costs no allocation or freeing per request
/// (a ring of Swift structs with Strings did both, on cold memory, for about a tenth of the
/// server's throughput). The buffer doubles when records that must be kept do not fit.
///
/// Records wrap round at a soft end (`end`) rather than at the end of the buffer: a journal
/// reserves a large buffer (`reserve`) so it never copies its way there, but a ring that ran to
/// the buffer's end before wrapping touched every page of it, 8 MiB over 8 shards holding 1 MiB
/// of GET records. The soft end starts at twice what the arena held when it moved to its
/// reserve and doubles only when the live records need it, so a ring touches about twice what
/// it keeps; moving it copies nothing.
struct RecordArena: ~Copyable, @unchecked Sendable { // sole owner of its buffer
    struct Slot {
        var id: Int
        var offset: Int
        var length: Int
    }

    private var buffer: UnsafeMutableRawPointer
    private var byteCapacity: Int
    /// Where records wrap round to the start: at most `byteCapacity`, and past the newest record
    /// while the ring has not wrapped.
    private var end: Int
    /// Where each live record is, oldest first.
    private var slots = Ring<Slot>()
    /// The oldest record's offset, and the end of the newest.
    private var head = 0
    private var tail = 0
    /// Bytes of the live records.
    private(set) var liveBytes = 0
    /// The least the buffer grows to when it first must: one move to this size instead of a
    /// chain of doublings, each copying everything held (`RequestJournal`'s `reserving`).
    private let reserve: Int

    /// `reserve`, `slotReserve`: what the buffer and the slot ring grow to at the least when they
    /// first outgrow their start. An arena that is never written to holds only its start.
    init(byteCapacity: Int = 16 * 1024, reserve: Int = 0, slotReserve: Int = 0) {
        self.byteCapacity = byteCapacity
        end = byteCapacity
        self.reserve = reserve
        buffer = .allocate(byteCount: byteCapacity, alignment: 16)
        slots = Ring(reserve: slotReserve)
    }

    deinit {
        buffer.deallocate()
    }

    var count: Int { slots.count }

    /// Where records wrap round: the bytes of the buffer the ring has touched since it last moved.
    var softEnd: Int { end }

    /// The id of the oldest live record, if any.
    var oldestID: Int? { slots.first?.id }

    /// Appends a record of `size` bytes, to be written at the address returned before the arena
    /// is used again (a pointer, not a closure: what a closure captured was retained and released
    /// on every request); the buffer grows if it does not fit. Dropping is the journal's business
    /// (it keeps to one budget over every arena).
    @inline(__always)
    mutating func append(id: Int, size: Int) -> UnsafeMutableRawPointer {
        var offset = placement(for: size)
        while offset == nil {
            grow(toFit: size)
            offset = placement(for: size)
        }
        slots.append(Slot(id: id, offset: offset!, length: size))
        tail = offset! + size
        liveBytes += size
        return buffer + offset!
    }

    /// Drops the records with an id at or below `id`; the bytes freed.
    mutating func drop(through id: Int) -> Int {
        var freed = 0
        while let oldest = slots.first, oldest.id <= id { freed += dropOldest() }
        return freed
    }

    /// Gives memory back when the live records fill under a quarter of a large buffer (the
    /// journal moved its bytes to other arenas, or evicted them), so arenas that once held the
    /// whole budget do not each keep a buffer that size.
    mutating func shrinkIfSparse() {
        guard byteCapacity > 64 * 1024, liveBytes < byteCapacity / 4 else { return }
        relocate(capacity: max(16 * 1024, liveBytes * 2), toFit: 0)
    }

    /// Where a record of `size` bytes fits without touching a live record, if anywhere: after the
    /// newest record, or else wrapped round to the start of the buffer.
    @inline(__always)
    private func placement(for size: Int) -> Int? {
        if slots.count == 0 { return size <= end ? 0 : nil }
        let wrapped = tail <= head
        if wrapped { return tail + size <= head ? tail : nil }
        if tail + size <= end { return tail }
        return size <= head ? 0 : nil
    }

    /// Drops the oldest record; its size.
    @discardableResult
    mutating func dropOldest() -> Int {
        guard let oldest = slots.first else { return 0 }
        liveBytes -= oldest.length
        slots.removeFirst()
        if let next = slots.first {
            head = next.offset
        } else {
            head = 0
            tail = 0
        }
        return oldest.length
    }

    /// Makes room for a record of `size` bytes: moves the soft end on while the ring has not
    /// wrapped and the buffer has room past it, else copies the live records, oldest first, to
    /// the start of a buffer with room for twice them. Out of line: inlined into `append`, it made
    /// the journal's locked closure too large to take the record's encoding in (+50 a request).
    @inline(never)
    private mutating func grow(toFit size: Int) {
        let newest = slots.count == 0 ? 0 : tail
        if newest > head || slots.count == 0, newest + size <= byteCapacity {
            end = min(byteCapacity, max(end * 2, newest + size))
            return
        }
        relocate(capacity: max(byteCapacity, (liveBytes + size) * 2, reserve), toFit: size)
    }

    /// Copies the live records, oldest first, to the start of a new buffer of `capacity` bytes,
    /// its soft end at twice the live records and the one of `size` bytes to come.
    private mutating func relocate(capacity newCapacity: Int, toFit size: Int) {
        let newBuffer = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        var moved = Ring<Slot>(reserve: slots.reserve)
        var offset = 0
        slots.forEach { slot in
            (newBuffer + offset).copyMemory(from: buffer + slot.offset, byteCount: slot.length)
            moved.append(Slot(id: slot.id, offset: offset, length: slot.length))
            offset += slot.length
        }
        buffer.deallocate()
        buffer = newBuffer
        byteCapacity = newCapacity
        end = min(newCapacity, max(16 * 1024, (offset + size) * 2))
        slots = moved
        head = 0
        tail = offset
    }

    /// Calls `body` with each live record's id and bytes, oldest first, until it returns false.
    func forEach(_ body: (Int, UnsafeRawBufferPointer) -> Bool) {
        slots.forEachWhile({ slot in body(slot.id, UnsafeRawBufferPointer(start: buffer + slot.offset, count: slot.length)) })
    }
}

/// A first-in, first-out list in a circular buffer that grows by doubling. Its own memory, a
/// power of two long, so a position wraps with a mask: appending is a store and an add (an Array
/// here cost a uniqueness check, a bounds check and a division on every request).
struct Ring<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var start = 0
    private(set) var count = 0
    /// What the first growth goes to at the least (a power of two), rather than twice 16.
    let reserve: Int

    init(reserve: Int = 0) {
        var rounded = 16
        while rounded < reserve { rounded *= 2 }
        self.reserve = rounded
        capacity = 16
        storage = .allocate(capacity: capacity)
    }

    deinit {
        for position in 0..<count { (storage + ((start + position) & (capacity - 1))).deinitialize(count: 1) }
        storage.deallocate()
    }

    var first: Element? { count > 0 ? storage[start] : nil }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (storage + ((start + count) & (capacity - 1))).initialize(to: element)
        count += 1
    }

    mutating func removeFirst() {
        precondition(count > 0, "removeFirst on an empty ring")
        (storage + start).deinitialize(count: 1)
        start = (start + 1) & (capacity - 1)
        count -= 1
    }

    /// Twice the room (or the reserve, when more), the oldest moved to position 0.
    private mutating func grow() {
        let newCapacity = max(capacity * 2, reserve)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        let firstRun = capacity - start // from `start` to the end of the buffer, then the wrapped rest
        (larger).moveInitialize(from: storage + start, count: firstRun)
        (larger + firstRun).moveInitialize(from: storage, count: start)
        storage.deallocate()
        storage = larger
        capacity = newCapacity
        start = 0
    }

    func forEach(_ body: (Element) -> Void) {
        forEachWhile({
            body($0); return true
        })
    }

    /// Oldest first, until `body` returns false.
    func forEachWhile(_ body: (Element) -> Bool) {
        for position in 0..<count where !body(storage[(start + position) & (capacity - 1)]) { return }
    }
}
