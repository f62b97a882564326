import Foundation

/// What tells a file changed: its modification time, size and inode (an editor's
/// write-then-rename changes the inode).
struct FileStamp: Equatable {
    var modified: Date?
    var size: Int?
    var inode: Int?

    /// Each file's stamp; nil for one that is missing (mid-rename, or deleted).
    static func of(_ files: [String]) -> [String: FileStamp?] {
        var result: [String: FileStamp?] = [:]
        for file in files {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            result[file] = attributes.map {
                FileStamp(
                    modified: $0[.modificationDate] as? Date, size: ($0[.size] as? NSNumber)?.intValue,
                    inode: ($0[.systemFileNumber] as? NSNumber)?.intValue)
            }
        }
        return result
    }
}

extension FileWatcher {
    /// Polls the files' stamps four times a second: cheap for the few files a spec is made of, and
    /// blind to everything else in their folders. A change is reported once the files are quiet
    /// for one poll, and the list of files is found again after each change, as an edit can add a
    /// reference.
    static func watchFiles(
        _ list: @Sendable () -> [String], first: [String], settled: [String: FileStamp?], running: RunFlag,
        onChange: @Sendable () -> Void
    ) {
        var files = first, settled = settled
        var pending: [String: FileStamp?]?
        while running.isSet {
            usleep(250_000)
            let now = FileStamp.of(files)
            if let seen = pending {
                guard now == seen else { pending = now; continue }
                pending = nil
                onChange()
                files = list()
                settled = FileStamp.of(files)
            } else if now != settled {
                pending = now
            }
        }
    }
}
