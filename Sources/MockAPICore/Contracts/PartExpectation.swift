package struct PartExpectation: Sendable, Equatable {
    package var name: String
    package var required = true
    /// The part must carry a filename (a file upload rather than a text field).
    package var filename = true
    /// Allowed content types, lowercased; nil allows any.
    package var contentTypes: [String]?
    package var maxBytes: Int?
    /// The part's bytes must start as its declared Content-Type's do (magic numbers, for the
    /// types `ContentSignature` knows): PNG bytes labelled `image/jpeg` are refused.
    package var checkBytes = false

    package init(
        name: String, required: Bool = true, filename: Bool = true, contentTypes: [String]? = nil, maxBytes: Int? = nil,
        checkBytes: Bool = false
    ) {
        self.name = name
        self.required = required
        self.filename = filename
        self.contentTypes = contentTypes
        self.maxBytes = maxBytes
        self.checkBytes = checkBytes
    }
}
