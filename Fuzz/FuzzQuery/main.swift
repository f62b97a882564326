// The query-string parser (every request's `?…`): any bytes give arguments, without a trap.
import Foundation
import MockAPICore

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let arguments = QueryString.arguments(UnsafeRawBufferPointer(start: data, count: size))
    precondition(arguments.count <= size + 1, "more arguments than bytes")
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
