/// One thing wrong with a contract set, with where it is.
package struct LoadProblem: Sendable, Equatable, CustomStringConvertible {
    package enum Location: Sendable, Equatable {
        case file
        case line(Int, column: Int)
        case jsonPath(String)
    }

    /// Path as the user wrote it on the command line plus the file, e.g. `contracts/backing.json`.
    package var file: String
    package var location: Location
    package var message: String

    package init(file: String, location: Location = .file, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    package var description: String {
        switch location {
        case .file: "\(file): \(message)"
        case .line(let line, let column): "\(file):\(line):\(column): \(message)"
        case .jsonPath(let path): "\(file): \(path): \(message)"
        }
    }
}

/// Every problem found while loading a contract set; nothing is served when there is one.
public struct ContractSetError: Error, Sendable, CustomStringConvertible {
    package var problems: [LoadProblem]

    package init(problems: [LoadProblem]) {
        self.problems = problems
    }

    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (["mockapi: the contract set is not usable (\(count)):"] + problems.map { "  " + $0.description })
            .joined(separator: "\n")
    }
}
