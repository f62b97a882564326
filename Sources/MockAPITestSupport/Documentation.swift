import Foundation

/// The repository's documentation as the tests read it: README.md, then docs/*.md in name order.
/// Transcripts and Swift blocks move between these files; a test that pins one finds it by its
/// text, whichever file holds it, and names that file when it fails.
package enum Documentation {
    package struct Page: Sendable {
        /// Relative to the repository root: `README.md`, `docs/server.md`.
        package let path: String
        package let text: String
        /// Split once: computed on each read, a test that looked a command up line by line split
        /// the whole page again at every line (minutes of a debug test run).
        package let lines: [String]

        init(path: String, text: String) {
            self.path = path
            self.text = text
            lines = text.components(separatedBy: "\n")
        }
    }

    /// Every page, README.md first; a file that cannot be read is left out (a test that needs its
    /// text then fails naming what it looked for).
    package static let pages: [Page] = {
        let docs = BundledAPI.root.appendingPathComponent("docs")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        return (["README.md"] + names.map { "docs/" + $0 }).compactMap { path in
            (try? String(contentsOf: BundledAPI.root.appendingPathComponent(path), encoding: .utf8)).map { Page(path: path, text: $0) }
        }
    }()

    /// Every line of every page, each with the page it is on, in page order.
    package static var lines: [(page: String, line: String)] {
        pages.flatMap { page in page.lines.map { (page.path, $0) } }
    }
}
