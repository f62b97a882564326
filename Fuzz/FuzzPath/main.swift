// Path templates (contracts' `path`) and request paths against the bundled contracts' route
// table: the input's first line is read as a template, the rest as a request path.
import Foundation
import FuzzDriver
import MockAPICore

// Loaded once: the fuzz binary runs from the repository root (scripts/fuzz).
let routes: RouteTable? = try? ContractSet.load(
    contracts: URL(fileURLWithPath: "contracts"), fixtures: URL(fileURLWithPath: "fixtures")
).routes

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 0x0A) ?? size
    _ = try? PathTemplate(String(decoding: bytes[0..<newline], as: UTF8.self))
    let path = UnsafeBufferPointer(rebasing: bytes[min(newline + 1, size)...])
    for method in [RequestMethod.GET, .POST] { _ = routes?.match(method: method, path: path) }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
