import MockAPICommandKit
import MockAPIImport
import MockAPIServer

/// The recording proxy's observer: the server's exchange handed to the import module's recording.
extension Recording {
    /// Keeps an answered exchange; one the target never answered is only counted. A body longer
    /// than `--max-recorded-body-bytes` was passed on whole but kept cut: said now, and on save.
    func observe(_ exchange: ProxiedExchange) {
        guard exchange.error == nil, exchange.status >= 100 else { return addUnanswered() }
        var recorded = RecordedExchange(
            method: exchange.method, url: exchange.url, requestHeaders: exchange.requestHeaders,
            requestBody: exchange.requestBody, status: exchange.status,
            responseHeaders: exchange.responseHeaders, responseBody: exchange.responseBody)
        recorded.redactedRequestHeaders = exchange.redactedRequestHeaders
        let cut = exchange.responseBodyLength > exchange.responseBody.count
        if cut {
            Output.error(
                "mockapi record: warning: \(exchange.method) \(exchange.url) answered \(exchange.responseBodyLength) bytes; "
                    + "its fixture keeps the first \(exchange.responseBody.count) (--max-recorded-body-bytes)")
        }
        add(recorded, cutFrom: cut ? exchange.responseBodyLength : nil)
    }
}
