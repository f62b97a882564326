import Foundation

/// Fixture files no contract's response references: left over from a renamed response or an
/// import, they mislead whoever reads the folder. `lint` warns about them; they never fail it.
package enum UnreferencedFixtures {
    /// Paths relative to the fixtures folder, sorted; hidden files (`.DS_Store`) are not counted.
    package static func find(in set: ContractSet) -> [String] {
        let referenced = Set(set.contracts.flatMap { $0.responses.compactMap(\.fixture) }.map(normalized))
        guard let walker = FileManager.default.enumerator(atPath: set.fixturesDirectory) else { return [] }
        var unreferenced: [String] = []
        while let relative = walker.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular,
                !referenced.contains(relative)
            else { continue }
            unreferenced.append(relative)
        }
        return unreferenced.sorted()
    }

    /// `./users/user.json` and `users//user.json` name `users/user.json`.
    private static func normalized(_ reference: String) -> String {
        reference.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
