import Synchronization

/// Request headers as they arrived, packed in one buffer: per header a 32-bit name length, a
/// 32-bit value length, then the name and value bytes.
///
/// The server fills it in one C call per request, a lookup skips headers by their lengths, and
/// Strings are made only for the headers someone reads: validation looks up a few, the journal
/// renders them all only when it is read.
// Why unchecked: the storage is never written after init (append makes a new one), so sharing
// it across threads is safe; ManagedBuffer itself is marked non-Sendable.
public struct HeaderFields: @unchecked Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Immutable once filled. A ManagedBuffer subclass rather than `[UInt8]`: one allocation,
    /// and none of the generic array-storage lookup that cost more than the copy itself on every
    /// request. Never nil (no headers: an empty one), so reading it borrows it: unwrapping an
    /// optional retained and released it on every lookup.
    private var storage: Storage
    /// The storage of every `HeaderFields()`. Unsafe only by ManagedBuffer's marking: it holds
    /// no bytes and is never written.
    nonisolated(unsafe) private static let empty = Storage.make(capacity: 0)
    /// The two 32-bit lengths before each field's bytes.
    static let lengthsSize = 2 * MemoryLayout<UInt32>.size

    /// The header is the number of bytes used and the room asked for (ManagedBuffer's own
    /// `capacity` asks malloc).
    private final class Storage: ManagedBuffer<Storage.Counts, UInt8> {
        struct Counts {
            var used: Int
            var room: Int
        }

        static func make(capacity: Int) -> Storage {
            unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in Counts(used: 0, room: capacity) }, to: Storage.self)
        }

        /// Read through a pointer: `header` is a class property, checked for exclusive access.
        var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.room } }

        /// Lets `fill` write up to `room` bytes; how many the headers need (none kept when more).
        func fill(_ body: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
            withUnsafeMutablePointers { counts, elements in
                let room = counts.pointee.room
                let needed = body(UnsafeMutableRawBufferPointer(start: elements, count: room))
                counts.pointee.used = needed <= room ? needed : 0
                return needed
            }
        }

        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { counts, elements in try body(UnsafeRawBufferPointer(start: elements, count: counts.pointee.used)) }
        }
    }

    package init() {
        storage = Self.empty
    }

    public init(arrayLiteral elements: (String, String)...) {
        self.init()
        for (name, value) in elements { append(name: name, value: value) }
    }

    /// Headers from bytes in this layout, as `withPackedBytes` hands them out; with `spareSlot`,
    /// in the buffer that thread slot keeps (`init(capacity:spareSlot:fill:)`).
    package init(packed: UnsafeRawBufferPointer, spareSlot: Int? = nil) {
        self.init(capacity: packed.count, spareSlot: spareSlot) { buffer in
            buffer.copyMemory(from: packed)
            return packed.count
        }
    }

    /// Headers written straight into a new buffer by `fill`, which is given room for `capacity`
    /// bytes and returns how many the headers need; asked again with more room if they need more.
    /// With `spareSlot` (the thread slot of the request it is for), the buffer is the one that
    /// slot keeps when no one else holds it any more and it is large enough, and a new buffer
    /// becomes the slot's: for the server's per-request copy, a malloc and a free fewer per
    /// request (elsewhere a kept buffer's unused room would live on in a long-kept value).
    package init(capacity: Int, spareSlot: Int? = nil, fill: (UnsafeMutableRawBufferPointer) -> Int) {
        var room = capacity
        if let slot = spareSlot, let spare = Spares.claim(slot: slot, room: room) {
            let needed = spare.fill(fill)
            if needed <= spare.room {
                storage = spare
                return
            }
            room = needed
        }
        while true {
            let candidate = Storage.make(capacity: room)
            let needed = candidate.fill(fill)
            if needed <= room {
                if let slot = spareSlot { Spares.keep(candidate, slot: slot) }
                storage = candidate
                return
            }
            room = needed
        }
    }

    /// One buffer kept per thread slot (modulo `slots`), each in an atomic a cache line apart
    /// holding a +1 reference. The slot's reference stays while a request uses the buffer, so it
    /// is free again exactly when that is the only one left.
    private enum Spares {
        static let slots = 16
        static let lineSize = 64
        /// Larger buffers are not kept: an odd request with huge headers does not pin its memory.
        static let largest = 4096

        // Why unsafe: allocated once and never freed; touched only through the atomics in it.
        nonisolated(unsafe) static let memory: UnsafeMutableRawPointer = {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: slots * lineSize, alignment: lineSize)
            for slot in 0..<slots {
                (memory + slot * lineSize).assumingMemoryBound(to: Atomic<UInt>.self).initialize(to: Atomic(0))
            }
            return memory
        }()

        @inline(__always)
        static func cell(_ slot: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
            (memory + (slot & (slots - 1)) * lineSize).assumingMemoryBound(to: Atomic<UInt>.self)
        }

        /// The slot's buffer when only the slot holds it and it has `room`; it stays the slot's.
        /// Taken out of the slot while checked, so two threads sharing a slot never both get it.
        static func claim(slot: Int, room: Int) -> Storage? {
            let cell = cell(slot)
            let raw = cell.pointee.exchange(0, ordering: .acquiringAndReleasing)
            guard let pointer = UnsafeRawPointer(bitPattern: raw) else { return nil }
            var spare = Unmanaged<Storage>.fromOpaque(pointer).takeRetainedValue()
            // Not unique: a request, a journal reader or a deferred reply still holds it. Dropped
            // from the slot; the new buffer takes its place.
            guard isKnownUniquelyReferenced(&spare), spare.room >= room else { return nil }
            // Back in the slot, with a reference of its own (one retain: `keep` cost a retain and
            // a release more).
            _ = Unmanaged.passUnretained(spare).retain()
            let previous = cell.pointee.exchange(raw, ordering: .acquiringAndReleasing)
            if let pointer = UnsafeRawPointer(bitPattern: previous) { Unmanaged<Storage>.fromOpaque(pointer).release() }
            return spare
        }

        /// Makes `storage` the slot's buffer (when it is small enough to keep).
        static func keep(_ storage: Storage, slot: Int) {
            guard storage.room <= largest else { return }
            let raw = UInt(bitPattern: Unmanaged.passRetained(storage).toOpaque())
            let previous = cell(slot).pointee.exchange(raw, ordering: .acquiringAndReleasing)
            if let pointer = UnsafeRawPointer(bitPattern: previous) { Unmanaged<Storage>.fromOpaque(pointer).release() }
        }
    }

    /// The packed buffer, for storing it elsewhere as one copy.
    package func withPackedBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withBytes(body)
    }

    /// The packed buffer's length: what `withPackedBytes` hands out.
    package var packedByteCount: Int { withPackedBytes { $0.count } }

    public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        lhs.withPackedBytes { left in rhs.withPackedBytes { right in left.elementsEqual(right) } }
    }

    package mutating func append(name: String, value: String) {
        var added: [UInt8] = []
        for length in [name.utf8.count, value.utf8.count] {
            withUnsafeBytes(of: UInt32(length)) { added.append(contentsOf: $0) }
        }
        added += name.utf8
        added += value.utf8
        let old = self
        self = old.withPackedBytes { existing in
            HeaderFields(capacity: existing.count + added.count) { buffer in
                buffer.copyMemory(from: existing)
                UnsafeMutableRawBufferPointer(rebasing: buffer[existing.count...]).copyBytes(from: added)
                return existing.count + added.count
            }
        }
    }

    /// The first value of a header, its name matched ASCII case-insensitively.
    public func value(for name: String) -> String? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ value(forName: $0) }) { return found }
        return value(for: String(decoding: Array(name.utf8), as: UTF8.self)) // a bridged name: make it contiguous
    }

    private func value(forName wanted: UnsafeBufferPointer<UInt8>) -> String? {
        withPackedBytes { buffer -> String? in
            var found: String?
            Self.forEachField(in: buffer) { fieldName, value in
                guard fieldName.count == wanted.count else { return true }
                for index in 0..<wanted.count where fieldName[index] | 0x20 != wanted[index] | 0x20 { return true }
                found = String(decoding: value, as: UTF8.self)
                return false
            }
            return found
        }
    }

    /// Calls `body` with the bytes of each value of the header `name` (ASCII, any case), in
    /// arrival order, until it returns false. Makes no String.
    package func forEachValue(of name: StaticString, _ body: (UnsafeRawBufferPointer) -> Bool) {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        withPackedBytes { buffer in
            Self.forEachField(in: buffer) { fieldName, value in
                guard fieldName.count == wanted.count else { return true }
                for index in 0..<wanted.count where fieldName[index] | 0x20 != wanted[index] | 0x20 { return true }
                return body(value)
            }
        }
    }

    /// The first value of a header named by a literal (ASCII, any case): no String is made for
    /// the name, and one for the value only when the header is there. For the request path.
    package func value(of name: StaticString) -> String? {
        var found: String?
        forEachValue(of: name) { value in
            found = String(decoding: value, as: UTF8.self)
            return false
        }
        return found
    }

    /// What every request's head is checked for, in one walk (`headScan`).
    package struct HeadScan: Sendable {
        /// How many `Host` lines it has (RFC 9112 wants one).
        package var hosts = 0
        /// Whether it names a session (`Mockapi-Session`).
        package var namesSession = false
        /// Whether a header line was malformed (the server's copy gives such a line an empty
        /// name: `malformation`).
        package var malformed = false
        /// Whether it has a `Content-Length` or `Transfer-Encoding`: without either there is no
        /// body, and `BodyFraming` need not walk the headers twice more to say so.
        package var framed = false
        /// Whether it has a `Prefer` header, so a request without one is not walked for it again.
        package var prefers = false
        /// Whether the request must name its `Host` (RFC 9112 §3.2: HTTP/1.1 must; HTTP/1.0
        /// need not): the server says, from the request line, for a head with none. A head
        /// made in process (tests, the core's callers) has no request line and needs none.
        package var requiresHost = false
        /// Whether the request target has a space in it (RFC 9112 §3.2), which the server's
        /// copy of the target says: the request line is malformed.
        package var targetHasSpace = false

        init() {}

        /// The scan the server made while copying a head, with what it knows of the request line.
        package init(hosts: Int, namesSession: Bool, malformed: Bool, framed: Bool, prefers: Bool, requiresHost: Bool, targetHasSpace: Bool) {
            self.hosts = hosts
            self.namesSession = namesSession
            self.malformed = malformed
            self.framed = framed
            self.prefers = prefers
            self.requiresHost = requiresHost
            self.targetHasSpace = targetHasSpace
        }

        /// Well formed, one `Host`, no body framing and no session header: a head the server
        /// reads on without asking anything more of it.
        package var isPlain: Bool { !malformed && hosts == 1 && !framed && !namesSession && !targetHasSpace }
    }

    /// Folding these into the walk the first needed anyway keeps them off the cost of a request:
    /// a length compare per header.
    package func headScan() -> HeadScan {
        withPackedBytes(Self.headScan(packed:))
    }

    /// `headScan` of headers in this layout that are not (yet) a `HeaderFields`: the server's
    /// copy in its thread's scratch buffer (`RequestHandler.beginRequest`).
    package static func headScan(packed buffer: UnsafeRawBufferPointer) -> HeadScan {
        var scan = HeadScan()
        // The walk written out (as `forEachField` walks): through its closure, it was not inlined.
        var offset = 0
        while offset + lengthsSize <= buffer.count {
            let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let valueLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            guard offset + lengthsSize + nameLength <= buffer.count else { break }
            let name = UnsafeRawBufferPointer(start: buffer.baseAddress! + offset + lengthsSize, count: nameLength)
            offset += lengthsSize + nameLength + valueLength
            switch nameLength {
            case 4: if equalsIgnoringCase(name, "host") { scan.hosts += 1 }
            case 6: if equalsIgnoringCase(name, "prefer") { scan.prefers = true }
            case 14: if equalsIgnoringCase(name, "content-length") { scan.framed = true }
            case 15: if equalsIgnoringCase(name, "mockapi-session") { scan.namesSession = true }
            case 17: if equalsIgnoringCase(name, "transfer-encoding") { scan.framed = true }
            case 0: scan.malformed = true
            default: break
            }
        }
        return scan
    }

    /// Why the first malformed header line is (the value the server's copy gave it in place of the
    /// line: an obs-fold, a name that is not a token, a control byte in a value), or nil.
    package var malformation: String? {
        withPackedBytes { buffer in
            var found: String?
            Self.forEachField(in: buffer) { name, value in
                guard name.count == 0 else { return true }
                found = String(decoding: value, as: UTF8.self)
                return false
            }
            return found
        }
    }

    /// `name` is `lowercase` (ASCII letters and `-`), in any case.
    private static func equalsIgnoringCase(_ name: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<wanted.count where name[index] | 0x20 != wanted[index] { return false }
        return true
    }

    /// Every header as Strings, in arrival order.
    public var pairs: [(name: String, value: String)] {
        withPackedBytes { buffer in
            var result: [(name: String, value: String)] = []
            Self.forEachField(in: buffer) { name, value in
                result.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                return true
            }
            return result
        }
    }

    /// Every header as `HTTPField`s, in arrival order (what the server's own code passes around;
    /// `pairs` is the same for a team's tests).
    package var fields: [HTTPField] { pairs.map { HTTPField($0.name, $0.value) } }

    /// Calls `body` with each header's name and value bytes until it returns false.
    static func forEachField(
        in buffer: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool
    ) {
        var offset = 0
        while offset + Self.lengthsSize <= buffer.count {
            let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let valueLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let nameStart = offset + Self.lengthsSize
            let valueStart = nameStart + nameLength
            offset = valueStart + valueLength
            let name = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<valueStart])
            if !body(name, UnsafeRawBufferPointer(rebasing: buffer[valueStart..<offset])) { return }
        }
    }
}
