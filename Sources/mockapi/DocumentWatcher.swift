import Foundation
import Synchronization

/// Calls back when the document of `serve --openapi --watch` or a file it references changes.
/// Polls those files' modification time, size and inode four times a second (an editor's
/// write-then-rename changes the inode): cheap for the few files a spec is made of, and blind to
/// everything else in their folders. A change is reported once the files are quiet for one poll,
/// and the list of files is found again after each change, as an edit can add a reference.
final class DocumentWatcher: Sendable {
    private let running = Atomic<Bool>(true)

    /// Takes the files' first stamps before it returns, so an edit made right after is seen.
    init(document: String, onChange: @escaping @Sendable () -> Void) {
        let files = DocumentReferences.files(from: document)
        let first = Self.stamps(files)
        let thread = Thread { [self] in watch(document, files: files, settled: first, onChange: onChange) }
        thread.name = "mockapi.watch-document"
        thread.start()
    }

    /// Stops watching within a quarter of a second.
    func stop() { running.store(false, ordering: .relaxed) }

    /// What tells a file changed: its modification time, size and inode.
    private struct Stamp: Equatable {
        var modified: Date?
        var size: Int?
        var inode: Int?
    }

    /// Each file's stamp; nil for one that is missing (mid-rename, or deleted).
    private static func stamps(_ files: [String]) -> [String: Stamp?] {
        var result: [String: Stamp?] = [:]
        for file in files {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            result[file] = attributes.map {
                Stamp(
                    modified: $0[.modificationDate] as? Date, size: ($0[.size] as? NSNumber)?.intValue,
                    inode: ($0[.systemFileNumber] as? NSNumber)?.intValue)
            }
        }
        return result
    }

    private func watch(_ document: String, files: [String], settled: [String: Stamp?], onChange: @Sendable () -> Void) {
        var files = files, settled = settled
        var pending: [String: Stamp?]?
        while running.load(ordering: .relaxed) {
            usleep(250_000)
            let now = Self.stamps(files)
            if let seen = pending {
                guard now == seen else { pending = now; continue }
                pending = nil
                onChange()
                files = DocumentReferences.files(from: document)
                settled = Self.stamps(files)
            } else if now != settled {
                pending = now
            }
        }
    }
}
