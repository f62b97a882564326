// The JSON parser (contracts, fixtures, request bodies): any bytes either fail with a Failure or
// give a value that the encoder writes back as text that parses to the same value.
import Foundation
import FuzzDriver
import MockAPICore

@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    guard let again = try? JSONParser.parse(value.serialized), again == value else {
        fatalError("the encoder's text does not read back as the value: \(value.serialized.prefix(200))")
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)
