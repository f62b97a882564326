// The query-string parser (every request's `?…`): any bytes give arguments, without a trap.
import Foundation
import FuzzDriver
import MockAPICore

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let arguments = QueryString.arguments(UnsafeRawBufferPointer(start: data, count: size))
    precondition(arguments.count <= size + 1, "more arguments than bytes")
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
