// The OpenAPI reader and importer (YAML or JSON, `$ref`s, schema walks): any bytes import or
// fail with an ImportError, within libFuzzer's time and memory limits.
import Foundation
import FuzzDriver
import MockAPIImport

let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fuzz-openapi-\(getpid())")
try! FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
let file = scratch.appendingPathComponent("document.yaml")

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    try! Data(UnsafeBufferPointer(start: data, count: size)).write(to: file)
    _ = try? OpenAPIImporter().importFile(file)
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
