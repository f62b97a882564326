import MockAPICore

/// A contract an importer built, and the subfolder of `contracts/` (and of `fixtures/`) it goes
/// to. The contract itself is the core's `ContractFile`, the one model of the format, so whatever
/// an importer builds is written by the one encoder the loader is tested against.
@dynamicMemberLookup
public struct ContractDraft: Sendable, Equatable {
    public var folder: String
    public var file: ContractFile
    /// The file's name when it is not the contract's name plus `.json` (a set exported and imported back).
    public var fileName: String?

    public init(name: String, description: String? = nil, folder: String, method: HTTPMethod, path: String) {
        self.folder = folder
        self.file = ContractFile(name: name, description: description, method: method, path: path)
    }

    public init(folder: String, file: ContractFile) {
        self.folder = folder
        self.file = file
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ContractFile, Value>) -> Value {
        get { file[keyPath: keyPath] }
        set { file[keyPath: keyPath] = newValue }
    }

    /// Where it is written, relative to `contracts/`.
    public var relativePath: String {
        let name = fileName ?? "\(file.name).json"
        return folder.isEmpty ? name : "\(folder)/\(name)"
    }

    public typealias Query = QueryExpectation
    public typealias Header = HeaderExpectation
    public typealias JSONKey = JSONKeyExpectation
    public typealias Part = PartExpectation
    public typealias Response = ContractFile.Response
}
