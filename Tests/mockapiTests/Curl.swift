import Foundation

/// curl, run to completion: its exit status, body and error text.
struct Curl {
    var status: Int32
    var stdout: String
    var stderr: String

    static func run(_ arguments: [String]) throws -> Curl {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = ["curl", "--max-time", "10"] + arguments
        let output = Pipe(), error = Pipe()
        curl.standardOutput = output
        curl.standardError = error
        try curl.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return Curl(status: curl.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
