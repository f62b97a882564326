package import MockAPICore

/// A contract an importer built, and the subfolder of `contracts/` (and of `fixtures/`) it goes
/// to. The contract itself is the core's `ContractFile`, the one model of the format, so whatever
/// an importer builds is written by the one encoder the loader is tested against.
@dynamicMemberLookup
package struct ContractDraft: Sendable, Equatable {
    package var folder: String
    package var file: ContractFile
    /// The file's name when it is not the contract's name plus `.json` (a set exported and imported back).
    package var fileName: String?

    package init(name: String, description: String? = nil, folder: String, method: RequestMethod, path: String) {
        self.folder = folder
        self.file = ContractFile(name: name, description: description, method: method, path: path)
    }

    package init(folder: String, file: ContractFile) {
        self.folder = folder
        self.file = file
    }

    package subscript<Value>(dynamicMember keyPath: WritableKeyPath<ContractFile, Value>) -> Value {
        get { file[keyPath: keyPath] }
        set { file[keyPath: keyPath] = newValue }
    }

    /// Where it is written, relative to `contracts/`.
    package var relativePath: String {
        let name = fileName ?? "\(file.name).json"
        return folder.isEmpty ? name : "\(folder)/\(name)"
    }

    package typealias Query = QueryExpectation
    package typealias Header = HeaderExpectation
    package typealias JSONKey = JSONKeyExpectation
    package typealias Part = PartExpectation
    package typealias Response = ContractFile.Response
}
