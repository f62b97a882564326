// The HAR reader and traffic inference: any bytes import or fail with an ImportError.
import Foundation
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

// libFuzzer's own entry point: SwiftPM gives the executable its `main`, so `main` hands over to the driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
