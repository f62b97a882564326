#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations loading needs, straight on POSIX: Foundation's URL and
/// enumerator machinery cost more than the reading itself for a set of 10,000 contracts.
enum FileSystem {
    enum Kind { case file, directory, missing }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The canonical absolute path, symlinks resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The whole file, or the errno text.
    static func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .failure(ReadFailure(errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return .success(bytes)
    }

    struct ReadFailure: Error {
        var errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }

    /// Paths of regular files under `root` whose names end in `suffix`, relative to `root`, sorted.
    static func files(under root: String, suffix: String) -> [String] {
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                switch kind(of: root + "/" + path) {
                case .directory: pending.append(path)
                case .file where name.hasSuffix(suffix): found.append(path)
                default: continue
                }
            }
        }
        return found.sorted()
    }
}

/// `read(2)`, named apart from `FileSystem.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
