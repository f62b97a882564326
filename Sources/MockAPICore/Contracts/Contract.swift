/// One route of the mock API: what a request must look like and the responses it may get.
///
/// A class, immutable once loaded: the server reads it on every request, and passing a
/// reference costs one retain where copying this struct-of-arrays cost dozens.
package final class Contract: Sendable {
    package let name: String
    package let description: String?
    /// The file it came from, relative to the contracts folder.
    package let file: String
    package let request: RequestExpectation
    /// Named responses in file order; one is named `default`.
    package let responses: [ResponseDefinition]
    /// Indexes into `responses`, served in turn; the last repeats.
    package let sequence: [Int]?
    /// The file as written (fixture references rather than bytes, no set defaults): what
    /// `export` writes back. Nil for a contract built in code.
    package let source: ContractFile?
    /// The response a request that breaks the contract gets instead of mockapi's 422, as the API
    /// itself would refuse it; nil for the 422. A header's own refusal comes first.
    package let refusal: Refusal?

    /// Indexes into `responses`: the contract's refusal, and per header location (`header.Authorization`) its own.
    package struct Refusal: Sendable {
        package var response: Int?
        package var byHeader: [(location: String, response: Int)] = []

        /// The response for these violations: the first header with a refusal of its own, else the contract's.
        package func response(for violations: [Violation]) -> Int? {
            for violation in violations {
                if let match = byHeader.first(where: { $0.location == violation.location }) { return match.response }
            }
            return response
        }
    }

    package init(
        name: String, description: String? = nil, file: String, request: RequestExpectation,
        responses: [ResponseDefinition], sequence: [Int]? = nil, source: ContractFile? = nil, refusal: Refusal? = nil
    ) {
        self.name = name
        self.description = description
        self.file = file
        self.request = request
        self.responses = responses
        self.sequence = sequence
        self.source = source
        self.refusal = refusal
    }

    package var defaultResponseIndex: Int { responses.firstIndex { $0.name == "default" } ?? 0 }

    package func responseIndex(named name: String) -> Int? { responses.firstIndex { $0.name == name } }
}
