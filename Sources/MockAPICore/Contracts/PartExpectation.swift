public struct PartExpectation: Sendable, Equatable {
    public var name: String
    public var required = true
    /// The part must carry a filename (a file upload rather than a text field).
    public var filename = true
    /// Allowed content types, lowercased; nil allows any.
    public var contentTypes: [String]?
    public var maxBytes: Int?

    public init(name: String, required: Bool = true, filename: Bool = true, contentTypes: [String]? = nil, maxBytes: Int? = nil) {
        self.name = name
        self.required = required
        self.filename = filename
        self.contentTypes = contentTypes
        self.maxBytes = maxBytes
    }
}
