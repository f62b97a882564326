// The contract loader: any bytes as a contract file beside one fixture load or give problems.
import Foundation
import FuzzDriver
import MockAPICore

let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fuzz-contract-\(getpid())")
let contracts = scratch.appendingPathComponent("contracts"), fixtures = scratch.appendingPathComponent("fixtures")
try! FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
try! FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
try! Data(#"{"ok": true}"#.utf8).write(to: fixtures.appendingPathComponent("ok.json"))
let file = contracts.appendingPathComponent("fuzzed.json")

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    try! Data(UnsafeBufferPointer(start: data, count: size)).write(to: file)
    _ = try? ContractSet.load(contracts: contracts, fixtures: fixtures)
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
