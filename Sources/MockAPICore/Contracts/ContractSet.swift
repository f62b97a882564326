import Foundation

/// A loaded, checked set of contracts and the route table built from them. Immutable.
public struct ContractSet: Sendable {
    public let contracts: [Contract]
    public let routes: RouteTable
    /// Where the set came from, as given by the user (for reports).
    public let contractsDirectory: String
    public let fixturesDirectory: String

    /// Reads every `*.json` under `contracts` and the fixtures they name, all-or-nothing:
    /// either a complete set or one error listing every problem found.
    public static func load(contracts: URL, fixtures: URL) throws(ContractSetError) -> ContractSet {
        let contractsDisplay = displayPath(contracts)
        let fixturesDisplay = displayPath(fixtures)
        var problems: [LoadProblem] = []
        if FileSystem.kind(of: fixtures.path) != .directory {
            problems.append(LoadProblem(file: fixturesDisplay, message: "fixtures folder not found"))
        }
        let (files, listingProblem) = contractFiles(in: contracts)
        if let listingProblem {
            problems.append(LoadProblem(file: contractsDisplay, message: listingProblem))
        } else if files.isEmpty {
            problems.append(LoadProblem(file: contractsDisplay, message: "no contract files (*.json) found"))
        }

        let store = FixtureStore(root: fixtures, displayRoot: fixturesDisplay)
        var loaded: [Contract] = []
        for relative in files {
            let display = "\(contractsDisplay)/\(relative)"
            guard case .success(let bytes) = FileSystem.read(contracts.path + "/" + relative) else {
                problems.append(LoadProblem(file: display, message: "cannot be read"))
                continue
            }
            let root: JSONValue
            do throws(JSONParser.Failure) { root = try JSONParser.parse(bytes) } catch {
                problems.append(LoadProblem(file: display, location: .line(error.line, column: error.column), message: "not valid JSON: \(error.message)"))
                continue
            }
            var decoder = ContractDecoder(file: relative, displayFile: display, fixtures: store)
            let contract = decoder.decode(root)
            problems += decoder.problems
            if let contract { loaded.append(contract) }
        }

        var firstFileByName: [String: String] = [:]
        for contract in loaded {
            if let other = firstFileByName[contract.name] {
                problems.append(LoadProblem(file: "\(contractsDisplay)/\(contract.file)", location: .jsonPath("$.name"),
                                            message: "contract name \"\(contract.name)\" is already used by \(contractsDisplay)/\(other)"))
            } else {
                firstFileByName[contract.name] = contract.file
            }
        }

        let table = RouteTable(contracts: loaded)
        problems += table.conflicts.map { conflict in
            LoadProblem(file: "\(contractsDisplay)/\(loaded[conflict.second].file)", location: .jsonPath("$.request.path"),
                        message: "\(loaded[conflict.second].request.method.rawValue) \(loaded[conflict.second].request.path) can match the same requests as \(loaded[conflict.first].request.path) in \(contractsDisplay)/\(loaded[conflict.first].file) (contract \"\(loaded[conflict.first].name)\")")
        }

        var unique: [LoadProblem] = []
        for problem in problems where !unique.contains(problem) { unique.append(problem) }
        guard unique.isEmpty else { throw ContractSetError(problems: unique) }
        return ContractSet(contracts: loaded, routes: table, contractsDirectory: contractsDisplay, fixturesDirectory: fixturesDisplay)
    }

    /// The `*.json` files under `directory`, relative and sorted, or why they cannot be listed.
    private static func contractFiles(in folder: URL) -> (files: [String], problem: String?) {
        guard FileSystem.kind(of: folder.path) == .directory else { return ([], "contracts folder not found") }
        return (FileSystem.files(under: folder.path, suffix: ".json"), nil)
    }

    private static func displayPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let cwd = FileManager.default.currentDirectoryPath
        if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
        return path
    }
}
