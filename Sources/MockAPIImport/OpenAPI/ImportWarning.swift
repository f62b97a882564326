/// Why an operation cannot become a contract: a short reason (for the summary) and the whole message.
struct Unexpressible: Error {
    var reason: String
    var message: String
    init(_ reason: String, _ message: String) {
        self.reason = reason
        self.message = message
    }
}

/// One thing an import loosened or left out: where (a JSON pointer), why in a word, and what.
struct ImportWarning {
    var location: String
    var reason: String
    var message: String
}
