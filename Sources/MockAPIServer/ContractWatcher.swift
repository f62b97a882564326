import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls back when anything under the given folders changes (`mockapi serve --watch`): inotify
/// on Linux, a poll of modification times every half second elsewhere. Changes are gathered
/// for 150 ms first, so an editor's write-then-rename is one reload, not two.
public final class ContractWatcher: Sendable {
    /// Cleared by `stop`; the watching thread reads it between waits.
    private final class RunFlag: Sendable {
        let value = Atomic<Bool>(true)
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    private let running = RunFlag()

    public init(folders: [String], onChange: @escaping @Sendable () -> Void) {
        let watcher = Thread { [running] in
            #if os(Linux)
            Self.watchWithInotify(folders, running: running, onChange: onChange)
            #else
            Self.watchByPolling(folders, running: running, onChange: onChange)
            #endif
        }
        watcher.name = "mockapi.watch"
        watcher.start()
    }

    /// Stops watching within a fraction of a second.
    public func stop() { running.value.store(false, ordering: .relaxed) }

    deinit { stop() }

    /// Every folder under `roots`, roots included (symlinked folders are not followed).
    static func folders(under roots: [String]) -> [String] {
        var found: [String] = []
        for root in roots {
            found.append(root)
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { found.append(root + "/" + relative) }
            }
        }
        return found
    }

    #if os(Linux)
    private static func watchWithInotify(_ roots: [String], running: RunFlag, onChange: @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return watchByPolling(roots, running: running, onChange: onChange) }
        defer { close(descriptor) }
        // Writes, renames, creations and deletions; not IN_ATTRIB, which reading a file (its
        // access time) would raise, so every reload would trigger the next.
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY)
        var watched: Set<String> = []
        func watchNewFolders() {
            // Adding a watch raises no event; removing one would (IN_IGNORED), so none are removed.
            for folder in folders(under: roots) where watched.insert(folder).inserted { inotify_add_watch(descriptor, folder, mask) }
        }
        watchNewFolders()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var lastEvent: UInt64?
        while running.isSet {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                while read(descriptor, &buffer, buffer.count) > 0 {}
                lastEvent = System.monotonicNanoseconds()
            }
            if let last = lastEvent, System.monotonicNanoseconds() - last > 150_000_000 {
                lastEvent = nil
                watchNewFolders()
                onChange()
            }
        }
    }
    #endif

    private static func watchByPolling(_ roots: [String], running: RunFlag, onChange: @Sendable () -> Void) {
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
