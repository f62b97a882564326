import MockAPICore

extension RequestHandler {
    /// Hands the request's log line to the log, if there is one (`--quiet`: nothing at all).
    /// Only copies here: the text is built on the log's queue.
    func log(_ record: RequestRecord, _ context: RequestContext, path: UnsafeBufferPointer<UInt8>) {
        guard let log = configuration.requestLog else { return }
        let verbose = log.options.verbose
        log.request(
            RequestLogEntry(
                record: record, path: String(decoding: path, as: UTF8.self),
                nanoseconds: System.monotonicNanoseconds() - context.started, session: context.session?.id, verbose: verbose,
                redaction: journal.redaction, contracts: verbose ? context.responder.set : nil))
    }
}
