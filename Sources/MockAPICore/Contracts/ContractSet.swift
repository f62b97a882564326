public import Foundation
import Synchronization

/// A loaded, checked set of contracts and the route table built from them. Immutable.
public struct ContractSet: Sendable {
    package let contracts: [Contract]
    package let routes: RouteTable
    /// Where the set came from, as given by the user (for reports).
    package let contractsDirectory: String
    package let fixturesDirectory: String
    /// `_defaults.json` as written (empty when the set has none), for `export`.
    package internal(set) var defaults = SetDefaults()
    /// The contracts that operate on in-memory collections (`resource`), put together.
    package internal(set) var resources = ResourceTable()

    /// Reads every `*.json` under `contracts` and the fixtures they name, all-or-nothing:
    /// either a complete set or one error listing every problem found.
    public static func load(contracts: URL, fixtures: URL) throws(ContractSetError) -> ContractSet {
        let contractsDisplay = displayPath(contracts)
        let fixturesDisplay = displayPath(fixtures)
        var problems: [LoadProblem] = []
        if FileSystem.kind(of: fixtures.path) != .directory {
            problems.append(LoadProblem(file: fixturesDisplay, message: "fixtures folder not found"))
        }
        let (listing, listingProblem) = contractFiles(in: contracts)
        var files = listing.files
        var defaults = SetDefaults()
        if let index = files.firstIndex(of: SetDefaults.fileName) {
            files.remove(at: index)
            let (decoded, defaultsProblems) = decodeDefaults(
                at: contracts.path + "/" + SetDefaults.fileName,
                display: "\(contractsDisplay)/\(SetDefaults.fileName)")
            defaults = decoded
            problems += defaultsProblems
        }
        if let listingProblem {
            problems.append(LoadProblem(file: contractsDisplay, message: listingProblem))
        } else if files.isEmpty && listing.refused.isEmpty {
            problems.append(LoadProblem(file: contractsDisplay, message: "no contract files (*.json) found"))
        }
        problems += listing.refused.map { LoadProblem(file: "\(contractsDisplay)/\($0.path)", message: $0.reason) }

        let (loaded, fileProblems) = decodeFiles(
            files, contracts: contracts, contractsDisplay: contractsDisplay,
            fixtures: fixtures, fixturesDisplay: fixturesDisplay, defaults: defaults)
        problems += fileProblems

        var firstFileByName: [String: String] = [:]
        for contract in loaded {
            if let other = firstFileByName[contract.name] {
                problems.append(
                    LoadProblem(
                        file: "\(contractsDisplay)/\(contract.file)", location: .jsonPath("$.name"),
                        message: "contract name \"\(contract.name)\" is already used by \(contractsDisplay)/\(other)"))
            } else {
                firstFileByName[contract.name] = contract.file
            }
        }

        let table = RouteTable(contracts: loaded)
        problems += table.conflicts.map { conflict in
            LoadProblem(
                file: "\(contractsDisplay)/\(loaded[conflict.second].file)", location: .jsonPath("$.request.path"),
                message:
                    "\(loaded[conflict.second].request.method.rawValue) \(loaded[conflict.second].request.path) can match the same requests as \(loaded[conflict.first].request.path) in \(contractsDisplay)/\(loaded[conflict.first].file) (contract \"\(loaded[conflict.first].name)\")"
            )
        }

        let resources = ResourceTable(contracts: loaded, problems: &problems) { "\(contractsDisplay)/\($0.file)" }

        var unique: [LoadProblem] = []
        for problem in problems where !unique.contains(problem) { unique.append(problem) }
        guard unique.isEmpty else { throw ContractSetError(problems: unique) }
        return ContractSet(
            contracts: loaded, routes: table, contractsDirectory: contractsDisplay, fixturesDirectory: fixturesDisplay,
            defaults: defaults, resources: resources)
    }

    /// Reads and decodes contract files on every core: files are independent, and a set of
    /// 10,000 must start well under half a second. Results keep file order either way.
    private static func decodeFiles(
        _ files: [String], contracts: URL, contractsDisplay: String,
        fixtures: URL, fixturesDisplay: String, defaults: SetDefaults
    ) -> ([Contract], [LoadProblem]) {
        let workers = files.count < 64 ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)
        let chunkSize = (files.count + workers - 1) / max(workers, 1)
        let results = Mutex<[Int: ([Contract], [LoadProblem])]>([:])
        // Read once: `URL.path` costs ~3,600 instructions a call.
        let folder = contracts.path
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // Each worker has its own fixture cache: a fixture shared across chunks is read twice, no lock needed.
            let store = FixtureStore(root: fixtures, displayRoot: fixturesDisplay)
            var decoded: [Contract] = []
            var problems: [LoadProblem] = []
            for relative in files.dropFirst(worker * chunkSize).prefix(chunkSize) {
                let display = "\(contractsDisplay)/\(relative)"
                guard let root = parseFile(folder + "/" + relative, display: display, problems: &problems) else { continue }
                var decoder = ContractDecoder(file: relative, displayFile: display, fixtures: store, defaults: defaults)
                let contract = decoder.decode(root)
                problems += decoder.problems
                if let contract { decoded.append(contract) }
            }
            results.withLock { $0[worker] = (decoded, problems) }
        }
        let ordered = results.withLock { results in (0..<workers).compactMap { results[$0] } }
        return (ordered.flatMap(\.0), ordered.flatMap(\.1))
    }

    /// A contract folder's JSON file, parsed, or nil with the problem (line and column for bad JSON).
    private static func parseFile(_ path: String, display: String, problems: inout [LoadProblem]) -> JSONValue? {
        let bytes: [UInt8]
        switch FileSystem.read(path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            problems.append(LoadProblem(file: display, message: "cannot be read: \(failure.description)"))
            return nil
        }
        do throws(JSONParser.Failure) { return try JSONParser.parse(bytes) } catch {
            problems.append(LoadProblem(file: display, location: .line(error.line, column: error.column), message: "not valid JSON: \(error.message)"))
            return nil
        }
    }

    private static func decodeDefaults(at path: String, display: String) -> (SetDefaults, [LoadProblem]) {
        var problems: [LoadProblem] = []
        guard let root = parseFile(path, display: display, problems: &problems) else { return (SetDefaults(), problems) }
        // The defaults file names no fixtures, so its store is never read.
        var decoder = ContractDecoder(file: SetDefaults.fileName, displayFile: display, fixtures: FixtureStore(root: URL(fileURLWithPath: "/"), displayRoot: ""))
        let defaults = decoder.decodeDefaults(root)
        return (defaults, problems + decoder.problems)
    }

    /// The `*.json` files under `directory`, relative and sorted, or why they cannot be listed.
    private static func contractFiles(in folder: URL) -> (listing: FileSystem.Listing, problem: String?) {
        guard FileSystem.kind(of: folder.path) == .directory else { return (FileSystem.Listing(), "contracts folder not found") }
        let yaml = "contract files are JSON, so this one would be ignored: write it as JSON (an OpenAPI document: mockapi import openapi)"
        return (FileSystem.files(under: folder.path, suffix: ".json", alsoRefused: [(".yaml", yaml), (".yml", yaml)]), nil)
    }

    private static func displayPath(_ url: URL) -> String {
        let path = lexicallyStandardized(url.path)
        let cwd = FileManager.default.currentDirectoryPath
        if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
        return path
    }

    /// An absolute path without `.` and `..` components, repeated or trailing slashes: what
    /// `URL.standardizedFileURL.path` gives, links not resolved. Foundation's first call there
    /// instantiated a `Set<UInt8>` by its mangled name (a scan of every protocol conformance in
    /// the binary, about 0.45 M instructions of every start); `joined(separator:)` looked up
    /// an associated type by name (0.3 M), so the path is put together here.
    static func lexicallyStandardized(_ path: String) -> String {
        var kept: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == ".." {
                _ = kept.popLast()
            } else {
                kept.append(component)
            }
        }
        var standard = kept.isEmpty ? "/" : ""
        for component in kept {
            standard += "/"
            standard += component
        }
        return standard
    }
}
