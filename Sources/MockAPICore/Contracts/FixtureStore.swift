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

        func problem(referencedFrom contract: String, at path: String) -> LoadProblem {
            switch self {
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

    private let root: URL
    private let displayRoot: String
    private var cache: [String: Result<Fixture, Failure>] = [:]

    init(root: URL, displayRoot: String) {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
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
        let url = root.appendingPathComponent(reference).standardizedFileURL.resolvingSymlinksInPath()
        guard url.path.hasPrefix(root.path + "/") else { return .failure(.escapes(reference)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failure(.missing(reference))
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { return .failure(.unreadable(reference, error.localizedDescription)) }
        let bytes = [UInt8](data)
        let contentType = MediaType.forFile(named: reference)
        if contentType == "application/json" {
            do throws(JSONParser.Failure) { _ = try JSONParser.parse(bytes) } catch {
                return .failure(.invalidJSON(file: "\(displayRoot)/\(reference)", error))
            }
        }
        return .success(Fixture(bytes: bytes, contentType: contentType))
    }
}
