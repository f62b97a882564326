import CMicroHTTPDShims
import MockAPICore
import MockAPITestSupport
import Testing

/// The server learns what it asks of a head (`HeaderFields.HeadScan`) while the C copy runs
/// (`CMicroHTTPDShims_copy_headers`), not from a second walk; the core's Swift scan still answers
/// for heads made in process. The two must agree: here over random heads built from the five
/// names the scan looks for in every case, names of their lengths that differ by one byte (a
/// byte that `| 0x20` folds onto the wanted one among them), empty names (a malformed line) and
/// others, in random order and number.
@Suite struct HeadScanAgreementTests {
    static let wanted = ["Host", "Prefer", "Content-Length", "Mockapi-Session", "Transfer-Encoding"]

    /// A name of the kinds above, from `random`.
    static func name(_ random: inout SplitMix64) -> [UInt8] {
        var name = Array(wanted[Int(random.next() % UInt64(wanted.count))].utf8)
        // Each byte's case at random.
        for index in name.indices where random.next() % 2 == 0 { name[index] ^= name[index] >= 65 ? 0x20 : 0 }
        switch random.next() % 6 {
        case 0: // one byte changed to any value, or to one `| 0x20` folds onto the wanted byte
            let index = Int(random.next() % UInt64(name.count))
            name[index] = random.next() % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : (name[index] | 0x20) & ~0x20
        case 1: name = [] // a malformed line
        case 2: name = Array("X-Trace-\(random.next() % 1000)".utf8)
        default: break
        }
        return name
    }

    static func packed(_ fields: [([UInt8], [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            withUnsafeBytes(of: UInt32(name.count).littleEndian) { bytes += $0 }
            withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes += $0 }
            bytes += name + value
        }
        return bytes
    }

    @Test func theCopysScanAgreesWithTheCoresOnRandomHeads() {
        var random = SplitMix64(seed: 9112)
        var seen = (hosts: Set<Int>(), prefers: 0, framed: 0, sessions: 0, malformed: 0)
        for _ in 0..<20_000 {
            let fields = (0..<Int(random.next() % 7)).map { _ in (Self.name(&random), Array("v\(random.next() % 10)".utf8)) }
            let bytes = Self.packed(fields)
            let swift = bytes.withUnsafeBytes { HeaderFields.headScan(packed: $0) }
            var c = CMicroHTTPDShims_HeadScan()
            bytes.withUnsafeBufferPointer { CMicroHTTPDShims_scan_packed_headers($0.baseAddress, $0.count, &c) }
            let context = "\(fields.map { String(decoding: $0.0, as: UTF8.self) })"
            #expect(Int(c.hosts) == swift.hosts, "\(context)")
            #expect(c.prefers == swift.prefers, "\(context)")
            #expect(c.framed == swift.framed, "\(context)")
            #expect(c.names_session == swift.namesSession, "\(context)")
            #expect(c.malformed == swift.malformed, "\(context)")
            #expect(CMicroHTTPDShims_head_is_plain(&c) == swift.isPlain, "\(context)")
            seen.hosts.insert(swift.hosts)
            if swift.prefers { seen.prefers += 1 }
            if swift.framed { seen.framed += 1 }
            if swift.namesSession { seen.sessions += 1 }
            if swift.malformed { seen.malformed += 1 }
        }
        // Every answer came up both ways, Host counts from none to several.
        #expect(seen.hosts.isSuperset(of: [0, 1, 2]))
        #expect([seen.prefers, seen.framed, seen.sessions, seen.malformed].allSatisfy { $0 > 1_000 && $0 < 19_000 }, "\(seen)")
    }
}
