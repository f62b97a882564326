import MockAPIImport
import Testing

@testable import mockapi

/// The words of `import openapi`'s progress line, phase by phase.
struct ProgressLineTests {
    @Test func eachPhaseSaysWhereTheImportIs() {
        #expect(ImportProgress(file: "stripe.json").line == "mockapi import openapi: reading stripe.json…")
        #expect(
            ImportProgress(file: "stripe.json", phase: .translating, operations: 312, total: 1068, warnings: 27).line
                == "mockapi import openapi: 312 of 1068 operations read, 27 warnings so far")
        #expect(
            ImportProgress(file: "k.json", phase: .translating, operations: 1, total: 1, warnings: 1).line
                == "mockapi import openapi: 1 of 1 operations read, 1 warning so far")
        // Path items behind a $ref are not counted ahead: never "13 of 12".
        #expect(
            ImportProgress(file: "k.json", phase: .translating, operations: 13, total: 12, warnings: 0).line
                == "mockapi import openapi: 13 operations read, 0 warnings so far")
        #expect(ImportProgress(file: "k.json", phase: .writing, operations: 1068).line == "mockapi import openapi: writing 1068 contracts…")
    }
}
