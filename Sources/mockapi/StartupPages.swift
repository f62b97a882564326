import Foundation
import SystemLibc

/// The binary's code and read-only data that the start touched, let go once the server listens.
///
/// Why: a start runs code a server never runs again (ArgumentParser's reflection, the contract
/// decoder, Foundation's and the runtime's set-up, the conformance scans) spread over the 19 MB
/// of `.text`, and the kernel maps each touched page with 64 KB around it: about 7 MB of the
/// binary stay resident for nothing. Dropping the mappings (`MADV_DONTNEED`) leaves the pages in
/// the page cache, shared and unchanged; what the server runs next is mapped again on its first
/// use, a minor fault. Only segments that are never written are dropped: code (`r-xp`) and the
/// first read-only segment (headers, `.rodata`, the Swift metadata sections, from offset 0).
/// RELRO and data, written by relocation, are kept.
enum StartupPages {
    static func release() {
        #if os(Linux)
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
            let executable = executablePath()
        else { return }
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5] == executable else { continue }
            let permissions = fields[1], offset = fields[2]
            guard permissions == "r-xp" || (permissions == "r--p" && offset.allSatisfy { $0 == "0" }) else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else { continue }
            _ = madvise(start, Int(bounds[1] - bounds[0]), MADV_DONTNEED)
        }
        #endif
    }

    #if os(Linux)
    private static func executablePath() -> Substring? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return Substring(String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    #endif
}
