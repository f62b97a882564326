#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations loading needs, straight on POSIX: Foundation's URL and
/// enumerator machinery cost more than the reading itself for a set of 10,000 contracts.
enum FileSystem {
    /// `other` is anything that is neither a regular file nor a directory (a FIFO, socket or
    /// device): reading one can block for ever, so loading refuses them.
    enum Kind: Equatable { case file, directory, other(String), missing }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return kind(of: info)
    }

    private static func kind(of info: stat) -> Kind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        case S_IFIFO: .other("a FIFO")
        case S_IFSOCK: .other("a socket")
        case S_IFCHR, S_IFBLK: .other("a device")
        default: .other("not a regular file")
        }
    }

    /// What is at a path itself, a symbolic link not followed (`lstat`): a regular file and its
    /// size, a link, or any other kind (never `.file`).
    enum Entry: Equatable { case regular(size: Int), link, kind(Kind) }

    static func entry(at path: String) -> Entry {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .kind(.missing) }
        if info.st_mode & S_IFMT == S_IFLNK { return .link }
        let kind = kind(of: info)
        return kind == .file ? .regular(size: Int(info.st_size)) : .kind(kind)
    }

    /// The canonical absolute path, symlinks resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The whole file, or the errno text. Only regular files are read: opening is non-blocking
    /// and the kind is checked on the open descriptor, so a FIFO swapped in cannot hang loading.
    /// `measuredSize`: what `entry(at:)` found the regular file's size to be; it is then read
    /// without asking its kind again (an `fstat` fewer), unless it is no longer that file.
    static func read(_ path: String, measuredSize: Int? = nil) -> Result<[UInt8], ReadFailure> {
        if let measuredSize, let bytes = readMeasured(path, size: measuredSize) { return .success(bytes) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadFailure(errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
        if case .other(let kind) = kind(of: info) { return .failure(ReadFailure(notRegular: kind)) }
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

    /// The file `entry(at:)` measured, read in one call for one byte more than its size: nil
    /// when it has grown since, is now a link, or cannot be read, for `read` to read it as any
    /// file. A regular file returns less than asked only at its end.
    private static func readMeasured(_ path: String, size: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            filled += count
            if count == 0 || filled < bytes.count { break }
        }
        guard filled <= size else { return nil }
        bytes.removeSubrange(filled...)
        return bytes
    }

    struct ReadFailure: Error {
        var description: String

        init(errno: Int32) { description = String(cString: strerror(errno)) }
        init(notRegular kind: String) { description = "\(kind), not a regular file" }
    }

    /// What listing a folder found: files whose names end in the suffix, relative to the root and
    /// sorted, and entries that cannot be loaded (path relative to the root, and why).
    struct Listing {
        var files: [String] = []
        var refused: [(path: String, reason: String)] = []
    }

    /// Walks `root` following symlinks. A folder already visited (same device and inode) is a
    /// loop, refused rather than walked for ever; a matching name that is not a regular file is
    /// refused rather than read, since reading a FIFO blocks.
    /// `alsoRefused`: other endings that are listed as refused with a reason, not passed over
    /// (a contract written in YAML would otherwise be ignored without a word).
    static func files(under root: String, suffix: String, alsoRefused: [(suffix: String, reason: String)] = []) -> Listing {
        var listing = Listing()
        var visited: Set<FileIdentity> = []
        if let identity = FileIdentity(path: root) { visited.insert(identity) }
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                // The entry's type as the directory gives it: a stat per file fewer (10,000 for
                // a large set). A link, or a file system that does not say, is asked.
                let type = entry.pointee.d_type
                let entryKind: Kind =
                    switch Int(type) {
                    case Int(DT_REG): .file
                    case Int(DT_DIR): .directory
                    default: kind(of: root + "/" + path)
                    }
                switch entryKind {
                case .directory:
                    guard let identity = FileIdentity(path: root + "/" + path) else { continue }
                    if visited.insert(identity).inserted {
                        pending.append(path)
                    } else {
                        listing.refused.append((path, "symlink loop: this folder is already being read through another path"))
                    }
                case .file where name.hasSuffix(suffix): listing.files.append(path)
                case .file where alsoRefused.contains(where: { name.hasSuffix($0.suffix) }):
                    listing.refused.append((path, alsoRefused.first { name.hasSuffix($0.suffix) }!.reason))
                case .other(let kind) where name.hasSuffix(suffix): listing.refused.append((path, "\(kind), not a regular file"))
                default: continue
                }
            }
        }
        listing.files.sort()
        listing.refused.sort { $0.path < $1.path }
        return listing
    }

    /// A file's device and inode: the same folder reached through two paths has one identity.
    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}

/// `read(2)`, named apart from `FileSystem.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
