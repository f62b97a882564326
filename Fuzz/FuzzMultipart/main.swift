// The streaming multipart parser (request bodies): any bytes, fed in chunks whose size the first
// byte picks, end in an event stream or a Failure; parts begin and end in pairs.
import Foundation
import FuzzDriver
import MockAPICore

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size > 0, let data else { return 0 }
    let chunk = Int(data[0]) + 1
    let body = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    guard var parser = try? MultipartParser(boundary: "XyZ-boundary") else { return 0 }
    var open = false
    let handle: (MultipartParser.Event) -> Void = { event in
        switch event {
        case .begin:
            precondition(!open, "a part began inside another")
            open = true
        case .data: precondition(open, "data outside a part")
        case .end:
            precondition(open, "a part ended that did not begin")
            open = false
        }
    }
    do {
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunk, body.count)
            try parser.feed(UnsafeRawBufferPointer(rebasing: body[offset..<end]), handle)
            offset = end
        }
        try parser.finish(handle)
    } catch {}
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
