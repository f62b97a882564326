import MockAPIImport
import MockAPIServer

/// The recording proxy's observer: the server's exchange handed to the import module's recording.
extension Recording {
    /// Keeps an answered exchange; one the target never answered is only counted.
    func observe(_ exchange: ProxiedExchange) {
        guard exchange.error == nil, exchange.status >= 100 else { return addUnanswered() }
        var recorded = RecordedExchange(
            method: exchange.method, url: exchange.url, requestHeaders: exchange.requestHeaders,
            requestBody: exchange.requestBody, status: exchange.status,
            responseHeaders: exchange.responseHeaders, responseBody: exchange.responseBody)
        recorded.redactedRequestHeaders = exchange.redactedRequestHeaders
        add(recorded)
    }
}
