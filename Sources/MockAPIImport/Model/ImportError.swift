/// Why an import or export produced nothing: input that cannot be read, or an output folder it will not overwrite.
package struct ImportError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
