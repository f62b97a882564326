import Foundation
import Testing

@testable import MockAPICore

/// The loader's messages name the contracts and fixtures folders as the user gave them, made
/// standard without Foundation (`ContractSet.lexicallyStandardized`); Foundation's
/// `standardizedFileURL` is the oracle for every shape of path a flag can hold.
struct DisplayPathTests {
    @Test(arguments: [
        "contracts", "./contracts", "contracts/", "contracts//x", "a/./b/../c", "../contracts", "../../x/./y/",
        "/", "/..", "/../..", "/tmp/../tmp/x", "/tmp/x/.", "/tmp/x/..", "//tmp///x", "a/b/../../..", "dir with space/ü",
        "/tmp/.hidden/..x/...", "x/..y", ".",
    ])
    func matchesFoundationsStandardizedFileURL(path: String) {
        let url = URL(fileURLWithPath: path)
        #expect(ContractSet.lexicallyStandardized(url.path) == url.standardizedFileURL.path, "\(path)")
    }
}
