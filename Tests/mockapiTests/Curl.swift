import Foundation
import MockAPITestSupport

/// curl, run to completion: its exit status, body and error text.
struct Curl {
    var status: Int32
    var stdout: String
    var stderr: String

    static func run(_ arguments: [String]) throws -> Curl {
        let run = try ExternalTool.run(["curl", "--max-time", "10"] + arguments)
        return Curl(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }
}
