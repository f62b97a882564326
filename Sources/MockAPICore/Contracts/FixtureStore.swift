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
        // realpath resolves symlinks, so a link inside fixtures/ pointing outside is caught too.
        guard let path = FileSystem.realPath(root + "/" + reference) else { return .failure(.missing(reference)) }
        guard path.hasPrefix(root + "/") else { return .failure(.escapes(reference)) }
        switch FileSystem.kind(of: path) {
        case .file: break
        case .other(let kind): return .failure(.unreadable(reference, "\(kind), not a regular file"))
        case .directory, .missing: return .failure(.missing(reference))
        }
        let bytes: [UInt8]
        switch FileSystem.read(path) {
        case .success(let read): bytes = read
        case .failure(let failure): return .failure(.unreadable(reference, failure.description))
        }
        let contentType = MediaType.forFile(named: reference)
        if contentType == "application/json" {
            do throws(JSONParser.Failure) { _ = try JSONParser.parse(bytes) } catch {
                return .failure(.invalidJSON(file: "\(displayRoot)/\(reference)", error))
            }
        }
        return .success(Fixture(bytes: bytes, contentType: contentType))
    }
}
