import Foundation
import Testing

@testable import MockAPICore

/// `FileSystem.read(_:measuredSize:)` skips the kind check for a file `lstat` measured; whatever
/// the measure says, the bytes are the file's as it is now.
struct FileSystemReadTests {
    @Test func aWrongMeasureStillReadsTheWholeFile() throws {
        let folder = try TestFolder(contracts: [:], fixtures: ["a.json": "0123456789", "empty.json": ""])
        let path = folder.fixtures.path + "/a.json"
        for size in [0, 1, 5, 9, 10, 11, 4096] {
            #expect(try FileSystem.read(path, measuredSize: size).get() == Array("0123456789".utf8), "measured \(size)")
        }
        #expect(try FileSystem.read(folder.fixtures.path + "/empty.json", measuredSize: 0).get() == [])
        #expect(try FileSystem.read(folder.fixtures.path + "/empty.json", measuredSize: 3).get() == [])
    }

    @Test func aLinkOrAFolderWhereAFileWasMeasuredIsReadAsAnyPathIs() throws {
        let folder = try TestFolder(contracts: [:], fixtures: ["a.json": "{}", "dir/x.json": "1"])
        let link = folder.fixtures.path + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "a.json")
        #expect(try FileSystem.read(link, measuredSize: 2).get() == Array("{}".utf8))
        // A folder measured as a file (swapped in meanwhile) gives no bytes, as it always has.
        #expect(try FileSystem.read(folder.fixtures.path + "/dir", measuredSize: 1).get() == [])
        #expect(throws: FileSystem.ReadFailure.self) { try FileSystem.read(folder.fixtures.path + "/gone.json", measuredSize: 1).get() }
    }
}
