import Foundation
import MockAPICore

/// An OpenAPI document: its entry file and every file its `$ref`s reach, loaded when first
/// needed and kept.
///
/// `$ref`s are resolved lazily, one at a time (recursive schemas are common; a full dereference
/// refuses them), with a cache. A relative file reference (`./common/NoContent.yml`,
/// `other.json#/components/schemas/X`) is relative to the file it is written in. A reference that
/// cannot be followed (a missing file or pointer, a URL, a cycle of references) resolves to nil
/// and leaves one warning naming where it was written; nothing here throws after the entry file.
///
/// Only files under the reference root are read: the entry file's folder unless the caller
/// widens it. A document is input from anyone (a spec from a vendor, a pull request), and
/// `../../secrets.yaml#/token` or `/etc/passwd` would otherwise be read and its values written
/// into fixtures and served.
final class OpenAPIDocument {
    /// Files a document may reach (entry included), and `$ref` hops followed for one value.
    static let maxFiles = 2_000
    static let maxReferenceHops = 32

    private(set) var files: [URL] = []
    private var trees: [JSONValue?] = []
    private var fileIndex: [String: Int] = [:]
    private var cache: [String: DocumentNode] = [:]
    private var warned: Set<String> = []
    /// Unresolvable references, one line each: where the `$ref` is, what it says, why.
    private(set) var warnings: [String] = []

    /// The entry file's root.
    let root: DocumentNode
    /// The folder referenced files must be in (symlinks resolved), with a trailing `/`.
    private let referenceRoot: String

    init(entry url: URL, referenceRoot: URL? = nil) throws(ImportError) {
        let tree = try DocumentFileReader.read(url)
        self.referenceRoot = Self.realFolder(referenceRoot ?? url.standardizedFileURL.deletingLastPathComponent())
        root = DocumentNode(value: tree, file: 0, pointer: "#")
        files = [url.standardizedFileURL]
        trees = [tree]
        fileIndex[url.standardizedFileURL.path] = 0
    }

    /// A document already in memory (a Swagger 2.0 document converted to OpenAPI 3).
    init(converted tree: JSONValue, from url: URL, referenceRoot: URL? = nil) {
        self.referenceRoot = Self.realFolder(referenceRoot ?? url.standardizedFileURL.deletingLastPathComponent())
        root = DocumentNode(value: tree, file: 0, pointer: "#")
        files = [url.standardizedFileURL]
        trees = [tree]
        fileIndex[url.standardizedFileURL.path] = 0
    }

    /// Where a node is, for a warning: `#/paths/~1a/get` in the entry file, `common/x.yml#/…` in another.
    func location(_ node: DocumentNode) -> String {
        guard node.file != 0 else { return node.pointer }
        let base = files[0].deletingLastPathComponent().path + "/"
        let path = files[node.file].path
        return (path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path) + node.pointer
    }

    /// The node itself, or what its `$ref` chain leads to; nil (with a warning) when that cannot be found.
    func resolve(_ node: DocumentNode) -> DocumentNode? {
        var current = node
        var seen: Set<String> = []
        var hops = 0
        while let reference = current.reference {
            let key = "\(current.file) \(reference)"
            guard seen.insert(key).inserted, hops < Self.maxReferenceHops else {
                warn(at: node, reference: reference, "the reference leads back to itself")
                return nil
            }
            hops += 1
            if let cached = cache[key] {
                current = cached
                continue
            }
            switch target(of: reference, from: current.file) {
            case .success(let next):
                cache[key] = next
                current = next
            case .failure(let problem):
                warn(at: current, reference: reference, problem.reason)
                return nil
            }
        }
        return current
    }

    /// A schema's name for recursion checks and warnings: its `$ref` as written (`#/components/schemas/Pet`).
    func referenceName(_ node: DocumentNode) -> String? {
        node.reference.map { node.file == 0 || $0.contains(".") ? $0 : "\(files[node.file].lastPathComponent)\($0)" }
    }

    private struct Problem: Error { let reason: String }

    private func target(of reference: String, from file: Int) -> Result<DocumentNode, Problem> {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let filePart = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        let targetFile: Int
        if filePart.isEmpty {
            targetFile = file
        } else {
            // A 3.1 schema may name another by its `$id` (`/components/schemas/petdetails#pet_details_id`).
            if let identified = identified(filePart, fragment: fragment) { return .success(identified) }
            if filePart.contains("://") { return .failure(Problem(reason: "remote references are not fetched")) }
            let decoded = filePart.removingPercentEncoding ?? filePart
            let url = URL(fileURLWithPath: decoded, relativeTo: files[file].deletingLastPathComponent()).standardizedFileURL
            guard Self.realPath(url.path).hasPrefix(referenceRoot) else {
                return .failure(Problem(reason: "\(url.path) is outside \(referenceRoot.dropLast()), the folder the document may read"))
            }
            switch load(url) {
            case .success(let index): targetFile = index
            case .failure(let problem): return .failure(problem)
            }
        }
        guard let tree = trees[targetFile] else { return .failure(Problem(reason: "the file could not be read")) }
        var node = DocumentNode(value: tree, file: targetFile, pointer: "#")
        guard !fragment.isEmpty else { return .success(node) }
        guard fragment.hasPrefix("/") else { return .failure(Problem(reason: "only JSON pointer fragments (#/…) are followed")) }
        for token in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = DocumentNode.unescape(token)
            // A pointer may pass through a `$ref` on its way (`#/components/schemas/A/properties/b`, A a reference).
            if node.reference != nil, let through = resolve(node) { node = through }
            if let member = node[key] {
                node = member
            } else if let index = Int(key), index >= 0, index < node.elements.count {
                node = node.elements[index]
            } else {
                return .failure(Problem(reason: "\(node.pointer == "#" ? "the file" : node.pointer) has no \"\(key)\""))
            }
        }
        return .success(node)
    }

    /// Schemas of the entry file by `$id`, found on first use.
    private lazy var identifiedSchemas: [String: DocumentNode] = {
        var found: [String: DocumentNode] = [:]
        var stack = [root]
        while let node = stack.popLast() {
            if let id = node["$id"]?.string, node["properties"] != nil || node["type"] != nil || node["$anchor"] != nil { found[id] = found[id] ?? node }
            stack += node.isObject ? node.members.map(\.node) : node.elements
        }
        return found
    }()

    /// The schema whose `$id` is `id`, and within it the one whose `$anchor` is `fragment` (or the pointer).
    private func identified(_ id: String, fragment: String) -> DocumentNode? {
        guard let schema = identifiedSchemas[id] else { return nil }
        guard !fragment.isEmpty else { return schema }
        guard !fragment.hasPrefix("/") else { return nil }
        var stack = [schema]
        while let node = stack.popLast() {
            if node["$anchor"]?.string == fragment { return node }
            stack += node.isObject ? node.members.map(\.node) : node.elements
        }
        return nil
    }

    /// `path` with its symlinks resolved (a link inside the folder may point outside it); as it
    /// is, standardised, when it does not exist.
    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func realFolder(_ folder: URL) -> String {
        let path = realPath(folder.path)
        return path.hasSuffix("/") ? path : path + "/"
    }

    private func load(_ url: URL) -> Result<Int, Problem> {
        if let known = fileIndex[url.path] {
            return trees[known] == nil ? .failure(Problem(reason: "\(url.lastPathComponent) could not be read")) : .success(known)
        }
        guard files.count < Self.maxFiles else { return .failure(Problem(reason: "the document reaches more than \(Self.maxFiles) files")) }
        let index = files.count
        files.append(url)
        fileIndex[url.path] = index
        do {
            trees.append(try DocumentFileReader.read(url))
            return .success(index)
        } catch {
            trees.append(nil)
            return .failure(Problem(reason: FileManager.default.fileExists(atPath: url.path) ? error.description : "no file \(url.path)"))
        }
    }

    private func warn(at node: DocumentNode, reference: String, _ reason: String) {
        // Once per place and reference: a second attempt gives a shorter reason.
        guard warned.insert("\(node.file) \(node.pointer) \(reference)").inserted else { return }
        warnings.append("\(location(node)): $ref \"\(reference)\" cannot be followed (\(reason)); left out")
    }
}
