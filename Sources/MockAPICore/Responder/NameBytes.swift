/// Every contract's and response's name as UTF-8 bytes in one buffer, made once per contract
/// set, for the journal: a request copies its contract's and response's names from here, with
/// no String to retain, release or walk (that cost about a hundred instructions per name).
// Why unchecked: the buffers are written in init and only read after, from any thread.
package final class NameBytes: @unchecked Sendable {
    private struct Span {
        var offset: Int
        var count: Int
    }

    private let bytes: UnsafeMutableRawBufferPointer
    /// Per contract, its name's span, then one per response.
    private let spans: UnsafeMutableBufferPointer<Span>
    /// Per contract, where its spans begin in `spans`.
    private let firstSpan: UnsafeMutableBufferPointer<Int>

    init(_ contracts: [Contract]) {
        var packed: [UInt8] = []
        var spans: [Span] = []
        var firstSpan: [Int] = []
        func add(_ name: String) {
            spans.append(Span(offset: packed.count, count: name.utf8.count))
            packed += name.utf8
        }
        for contract in contracts {
            firstSpan.append(spans.count)
            add(contract.name)
            for response in contract.responses { add(response.name) }
        }
        bytes = .allocate(byteCount: max(packed.count, 1), alignment: 1)
        bytes.copyBytes(from: packed)
        self.spans = .allocate(capacity: max(spans.count, 1))
        _ = self.spans.initialize(from: spans)
        self.firstSpan = .allocate(capacity: max(firstSpan.count, 1))
        _ = self.firstSpan.initialize(from: firstSpan)
    }

    deinit {
        bytes.deallocate()
        spans.deallocate()
        firstSpan.deallocate()
    }

    /// Contract `index`'s name.
    package func contract(_ index: Int) -> UnsafeRawBufferPointer {
        slice(spans[firstSpan[index]])
    }

    /// The name of response `response` of contract `index`.
    package func response(contract index: Int, response: Int) -> UnsafeRawBufferPointer {
        slice(spans[firstSpan[index] + 1 + response])
    }

    private func slice(_ span: Span) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes.baseAddress! + span.offset, count: span.count)
    }
}
