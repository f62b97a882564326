import Foundation
import Synchronization

/// Calls back when files change, for `mockapi serve --watch`: the one file-watching API, in two
/// forms. `init(folders:)` watches everything under folders (a contract set): inotify on Linux, a
/// poll of modification times every half second elsewhere. Changes are gathered until 150 ms pass
/// quietly, so an editor's write-then-rename is one reload, not two, but for at most a second, so
/// a file rewritten without pause still reloads. A folder deleted and made again (a branch
/// switch, a regenerated fixtures folder) is watched again. `init(files:)` watches a list of
/// files found again after each change (an OpenAPI document and what its `$ref`s reach).
package final class FileWatcher: Sendable {
    /// Cleared by `stop`; the watching thread reads it between waits.
    final class RunFlag: Sendable {
        let value = Atomic<Bool>(true)
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    private let running = RunFlag()

    /// Returns once the folders are watched, so an edit made right after is seen (scripts and
    /// tests edit as soon as `serve` says it is listening).
    package init(folders: [String], onChange: @escaping @Sendable () -> Void) {
        let armed = DispatchSemaphore(value: 0)
        let watcher = Thread { [running] in
            #if os(Linux)
            Self.watchWithInotify(folders, running: running, armed: armed.signal, onChange: onChange)
            #else
            Self.watchByPolling(folders, running: running, armed: armed.signal, onChange: onChange)
            #endif
        }
        watcher.name = "mockapi.watch"
        watcher.start()
        armed.wait()
    }

    /// Watches the files `files` lists, listing them again after each change (see FileWatcher+files).
    /// Takes the files' first stamps before it returns, so an edit made right after is seen.
    package init(files: @escaping @Sendable () -> [String], onChange: @escaping @Sendable () -> Void) {
        let first = files()
        let stamps = FileStamp.of(first)
        let watcher = Thread { [running] in
            Self.watchFiles(files, first: first, settled: stamps, running: running, onChange: onChange)
        }
        watcher.name = "mockapi.watch-files"
        watcher.start()
    }

    /// Stops watching within a fraction of a second.
    package func stop() { running.value.store(false, ordering: .relaxed) }

    deinit { stop() }

    /// Every folder under `roots`, roots included, by their real paths: a root or a folder in it
    /// that is a symlink is followed (a `fixtures` linked to a shared checkout), each real folder
    /// listed once, so a link back up the tree ends there.
    static func folders(under roots: [String]) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        var pending = roots.map(realFolder)
        while let root = pending.popLast() {
            guard seen.insert(root).inserted else { continue }
            found.append(root)
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                switch walker.fileAttributes?[.type] as? FileAttributeType {
                case .typeDirectory?:
                    let folder = root + "/" + relative
                    if seen.insert(folder).inserted { found.append(folder) }
                case .typeSymbolicLink?:
                    // Walked as a root of its own: the enumerator does not go through links.
                    var isFolder: ObjCBool = false
                    let link = root + "/" + relative
                    if FileManager.default.fileExists(atPath: link, isDirectory: &isFolder), isFolder.boolValue { pending.append(realFolder(link)) }
                default:
                    break
                }
            }
        }
        return found
    }

    /// `path` with every symlink in it resolved (itself when it cannot be: a missing folder).
    static func realFolder(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Quiet time that ends a burst of changes, and the longest a burst delays its reload.
    static let quietNanoseconds: UInt64 = 150_000_000
    static let maximumDelayNanoseconds: UInt64 = 1_000_000_000

    /// When a burst of changes that began at `first` and last changed at `last` is due to reload.
    static func isDue(first: UInt64, last: UInt64, now: UInt64) -> Bool {
        now - last > quietNanoseconds || now - first > maximumDelayNanoseconds
    }

    #if os(Linux)
    private static func watchWithInotify(_ roots: [String], running: RunFlag, armed: () -> Int, onChange: @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return watchByPolling(roots, running: running, armed: armed, onChange: onChange) }
        defer { close(descriptor) }
        // Writes, renames, creations and deletions; not IN_ATTRIB, which reading a file (its
        // access time) would raise, so every reload would trigger the next. IN_DELETE_SELF and
        // IN_MOVE_SELF tell a watched folder is gone.
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY | IN_DELETE_SELF | IN_MOVE_SELF)
        /// The folder each watch is on. A folder's watch ends when it is deleted (the kernel says
        /// IN_IGNORED) or moved away; its path is then watched again once a folder is back there.
        var watched: [Int32: String] = [:]
        /// Adds watches on folders not yet watched; true when it added any.
        @discardableResult
        func watchNewFolders() -> Bool {
            let known = Set(watched.values)
            var added = false
            for folder in folders(under: roots) where !known.contains(folder) {
                let watch = inotify_add_watch(descriptor, folder, mask)
                if watch >= 0 {
                    watched[watch] = folder
                    added = true
                }
            }
            return added
        }
        watchNewFolders()
        _ = armed()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var burst: (first: UInt64, last: UInt64)?
        var lastRootCheck: UInt64 = 0
        while running.isSet {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let now = { System.monotonicNanoseconds() }
            if poll(&poller, 1, 50) > 0 {
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    guard count > 0 else { break }
                    forEachEvent(in: buffer, count: count) { watch, flags in
                        if flags & UInt32(IN_IGNORED) != 0 {
                            watched[watch] = nil
                        } else if flags & UInt32(IN_MOVE_SELF) != 0 {
                            inotify_rm_watch(descriptor, watch) // it watches the folder's new place, not its path
                            watched[watch] = nil
                        }
                    }
                }
                burst = (burst?.first ?? now(), now())
            }
            // A root deleted whole raises nothing when it comes back (its parent is not watched):
            // look for it twice a second while it is missing, and reload once it is back, since
            // its files may have been copied in before the watch.
            if now() - lastRootCheck > 500_000_000, roots.contains(where: { !watched.values.contains(realFolder($0)) }) {
                lastRootCheck = now()
                if watchNewFolders() { burst = (burst?.first ?? now(), now()) }
            }
            if let current = burst, isDue(first: current.first, last: current.last, now: now()) {
                burst = nil
                watchNewFolders()
                onChange()
            }
        }
    }

    /// Calls `body` with each inotify event's watch and flags in `buffer[..<count]`.
    private static func forEachEvent(in buffer: [UInt8], count: Int, _ body: (Int32, UInt32) -> Void) {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let flags = bytes.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int32>.size, as: UInt32.self)
                let nameLength = bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
                body(watch, flags)
                offset += header + Int(nameLength)
            }
        }
    }
    #endif

    private static func watchByPolling(_ roots: [String], running: RunFlag, armed: () -> Int, onChange: @Sendable () -> Void) {
        func fingerprint() -> [String: Date] {
            var seen: [String: Date] = [:]
            for folder in folders(under: roots) {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                    let path = folder + "/" + name
                    seen[path] = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
                }
            }
            return seen
        }
        var last = fingerprint()
        _ = armed()
        while running.isSet {
            usleep(500_000)
            let now = fingerprint()
            if now != last {
                last = now
                onChange()
            }
        }
    }
}
