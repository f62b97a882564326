import Foundation

/// Reads fixture files once each, refusing any reference that leaves the fixtures folder.
final class FixtureStore {
    struct Fixture {
        var bytes: [UInt8]
        var contentType: String
    }

    enum Failure: Error {
        case escapes(String)
        case missing(String)
        case unreadable(String, String)
        case invalidJSON(file: String, JSONParser.Failure)
        /// The fixtures folder itself is missing: the loader says so once, not once per response.
        case folderMissing

        func problem(referencedFrom contract: String, at path: String) -> LoadProblem? {
            switch self {
            case .folderMissing:
                nil
            case .escapes(let reference):
                LoadProblem(file: contract, location: .jsonPath(path), message: "fixture \"\(reference)\" leaves the fixtures folder; references must stay inside it")
            case .missing(let reference):
                LoadProblem(file: contract, location: .jsonPath(path), message: "fixture \"\(reference)\" does not exist")
            case .unreadable(let reference, let reason):
                LoadProblem(file: contract, location: .jsonPath(path), message: "fixture \"\(reference)\" cannot be read: \(reason)")
            case .invalidJSON(let file, let failure):
                LoadProblem(file: file, location: .line(failure.line, column: failure.column), message: "not valid JSON: \(failure.message)")
            }
        }
    }

    /// The fixtures folder's canonical path; nil when it does not exist (reported by the loader).
    private let root: String?
    private let displayRoot: String
    private var cache: [String: Result<Fixture, Failure>] = [:]

    init(root: URL, displayRoot: String) {
        self.root = FileSystem.realPath(root.path)
        self.displayRoot = displayRoot
    }

    func load(_ reference: String) -> Result<Fixture, Failure> {
        if let cached = cache[reference] { return cached }
        let result = read(reference)
        cache[reference] = result
        return result
    }

    private func read(_ reference: String) -> Result<Fixture, Failure> {
        guard !reference.isEmpty, !reference.hasPrefix("/") else { return .failure(.escapes(reference)) }
        guard let root else { return .failure(.folderMissing) }
        // A reference that climbs out (`../x`) is refused even when the target does not exist.
        var depth = 0
        // Split as bytes: a Character-wise split cost ~9,500 instructions a fixture.
        for component in reference.utf8.split(separator: UInt8(ascii: "/")) where !component.elementsEqual(".".utf8) {
            depth += component.elementsEqual("..".utf8) ? -1 : 1
            if depth < 0 { return .failure(.escapes(reference)) }
        }
        let file: ResolvedFile
        switch resolve(reference, root: root) {
        case .success(let resolved): file = resolved
        case .failure(let failure): return .failure(failure)
        }
        let bytes: [UInt8]
        switch FileSystem.read(file.path, measuredSize: file.size) {
        case .success(let read): bytes = read
        case .failure(let failure): return .failure(.unreadable(reference, failure.description))
        }
        let contentType = MediaType.forFile(named: reference)
        if contentType == "application/json" {
            do throws(JSONParser.Failure) { try JSONParser.check(bytes) } catch {
                return .failure(.invalidJSON(file: "\(displayRoot)/\(reference)", error))
            }
        }
        return .success(Fixture(bytes: bytes, contentType: contentType))
    }

    /// A fixture's canonical path.
    private struct ResolvedFile {
        var path: String
        /// Its size as `lstat` found it; nil when it was reached through a link.
        var size: Int?
    }

    /// The regular file `reference` names, symlinks resolved, or why it cannot be served: it
    /// leaves the folder (a link inside fixtures/ pointing outside too), is missing, or is not a
    /// regular file. The folder holding it is resolved once for all its fixtures and the file
    /// itself looked at without following it (`lstat`); only a link is resolved whole. A
    /// `realpath` per fixture read every component's link (five `readlink` calls for
    /// `fixtures/generated/r1.json`): half the system calls of loading 10,000 contracts.
    private func resolve(_ reference: String, root: String) -> Result<ResolvedFile, Failure> {
        let slash = reference.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(reference[..<$0]) } ?? ""
        let name = slash.map { String(reference[reference.index(after: $0)...]) } ?? reference
        // A name the folder's path would swallow (`a/..`, `a/.`, `a/`) takes the whole-path way.
        guard name != "", name != ".", name != ".." else { return resolveWhole(reference, root: root) }
        guard let realFolder = realFolder(folder, root: root) else { return .failure(.missing(reference)) }
        let path = realFolder + "/" + name
        let entry = FileSystem.entry(at: path)
        if entry == .link { return resolveWhole(reference, root: root) }
        if entry == .kind(.missing) { return .failure(.missing(reference)) }
        guard realFolder == root || realFolder.hasPrefix(root + "/") else { return .failure(.escapes(reference)) }
        switch entry {
        case .regular(let size): return .success(ResolvedFile(path: path, size: size))
        case .kind(.other(let kind)): return .failure(.unreadable(reference, "\(kind), not a regular file"))
        case .kind(.file), .kind(.directory), .kind(.missing), .link: return .failure(.missing(reference))
        }
    }

    /// `resolve` by one `realpath` of the whole path.
    private func resolveWhole(_ reference: String, root: String) -> Result<ResolvedFile, Failure> {
        guard let path = FileSystem.realPath(root + "/" + reference) else { return .failure(.missing(reference)) }
        guard path.hasPrefix(root + "/") else { return .failure(.escapes(reference)) }
        switch FileSystem.kind(of: path) {
        case .file: return .success(ResolvedFile(path: path))
        case .other(let kind): return .failure(.unreadable(reference, "\(kind), not a regular file"))
        case .directory, .missing: return .failure(.missing(reference))
        }
    }

    /// Folders' canonical paths by their path under the fixtures folder (nil: missing).
    private var realFolders: [String: String?] = [:]

    private func realFolder(_ folder: String, root: String) -> String? {
        if let known = realFolders[folder] { return known }
        let real = folder.isEmpty ? root : FileSystem.realPath(root + "/" + folder)
        realFolders[folder] = real
        return real
    }
}
