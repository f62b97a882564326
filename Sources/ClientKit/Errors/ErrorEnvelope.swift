/// The JSON body an API sends with an error status.
///
/// ```json
/// {"error_messages": ["Not found"], "http_code": 404, "ksr_code": "not_found"}
/// ```
/// Decode it with the client's decoder (``APIClient/decoder``): its keys are snake_case on the wire.
public struct ErrorEnvelope: Codable, Sendable, Equatable {
    /// Messages meant for people.
    public var errorMessages: [String]
    /// The HTTP status the server meant.
    public var httpCode: Int
    /// A machine-readable error code, when the server sends one.
    public var ksrCode: String?
    /// Server-side exception details, sent by development servers.
    public var exception: Exception?

    /// Creates an envelope.
    public init(errorMessages: [String], httpCode: Int, ksrCode: String? = nil, exception: Exception? = nil) {
        self.errorMessages = errorMessages
        self.httpCode = httpCode
        self.ksrCode = ksrCode
        self.exception = exception
    }

    /// A server-side exception: its message and backtrace.
    public struct Exception: Codable, Sendable, Equatable {
        /// The exception's message.
        public var message: String?
        /// The backtrace lines.
        public var backtrace: [String]?

        /// Creates exception details.
        public init(message: String? = nil, backtrace: [String]? = nil) {
            self.message = message
            self.backtrace = backtrace
        }
    }
}
