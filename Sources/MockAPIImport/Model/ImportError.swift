/// Why an import or export produced nothing: input that cannot be read, or an output folder it will not overwrite.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
