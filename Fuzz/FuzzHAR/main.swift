// The HAR reader and traffic inference: any bytes import or fail with an ImportError.
import Foundation
import FuzzDriver
import MockAPIImport

let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fuzz-har-\(getpid())")
try! FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
let file = scratch.appendingPathComponent("capture.har")

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    try! Data(UnsafeBufferPointer(start: data, count: size)).write(to: file)
    _ = try? HARImporter().importFile(file)
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
