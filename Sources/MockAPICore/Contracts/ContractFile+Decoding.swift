import Foundation

/// The decoder's public entries: one contract file, or `_defaults.json`, read on its own. A whole
/// set is read by `ContractSet.load`; both go through `ContractDecoder`.
extension ContractFile {
    /// Parses and decodes one contract file on its own (no fixtures read, no set defaults): the
    /// problems are the ones `lint` reports for the file's own keys and values.
    package static func decode(_ json: JSONValue, file: String = "contract.json") throws(ContractSetError) -> ContractFile {
        var decoder = ContractDecoder(file: file, displayFile: file, fixtures: FixtureStore(root: .init(fileURLWithPath: "/"), displayRoot: ""))
        let decoded = decoder.decodeFile(json)
        guard let decoded, decoder.problems.isEmpty else {
            throw ContractSetError(problems: decoder.problems.isEmpty ? [LoadProblem(file: file, message: "not a contract")] : decoder.problems)
        }
        return decoded
    }
}

extension SetDefaults {
    /// Parses `_defaults.json` on its own; the problems are the ones `lint` reports for it.
    package static func decode(_ json: JSONValue, file: String = SetDefaults.fileName) throws(ContractSetError) -> SetDefaults {
        var decoder = ContractDecoder(file: file, displayFile: file, fixtures: FixtureStore(root: .init(fileURLWithPath: "/"), displayRoot: ""))
        let defaults = decoder.decodeDefaults(json)
        guard decoder.problems.isEmpty else { throw ContractSetError(problems: decoder.problems) }
        return defaults
    }
}
