package struct HeaderExpectation: Sendable, Equatable {
    package var name: String
    package var required = true
    /// The value must start with one of these (`token ` or `Basic `); empty allows any.
    package var prefixes: [String] = []
    /// The only values allowed; nil allows any.
    package var enumValues: [String]?
    /// The contract's response a request gets when this header is missing or wrong (a 401 with
    /// the API's own error body), instead of the contract's refusal.
    package var refusal: String?

    package init(
        name: String, required: Bool = true, prefix: String? = nil, prefixes: [String] = [], enumValues: [String]? = nil,
        refusal: String? = nil
    ) {
        self.name = name
        self.required = required
        self.prefixes = prefix.map { [$0] + prefixes } ?? prefixes
        self.enumValues = enumValues
        self.refusal = refusal
    }
}
