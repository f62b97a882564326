/// The one place a contract's response becomes what is sent: its headers, and its `{{…}}`
/// placeholders filled for one request. The server supplies only what it alone knows (its base
/// URL, the body it kept to echo, the session's counter) and sends what this returns; the
/// responses it prepares at start are made from the same headers.
package struct AnswerRendering: Sendable {
    package let set: ContractSet
    /// What the serving policy adds to every answer (CORS, when on).
    package let extraHeaders: [HTTPField]

    package init(set: ContractSet, extraHeaders: [HTTPField]) {
        self.set = set
        self.extraHeaders = extraHeaders
    }

    /// The contract's headers, then the server's. With `--cors` on, a contract's own
    /// `Access-Control-*` (a recorded backend's) give way: a browser refuses an answer with two
    /// `Access-Control-Allow-Origin`.
    package func headers(contract index: Int, response: Int) -> [HTTPField] {
        let contract = set.contracts[index]
        let definition = contract.responses[response]
        let own = extraHeaders.isEmpty ? definition.headers : definition.headers.filter { !$0.name.lowercased().hasPrefix("access-control-") }
        return [HTTPField(Responder.contractHeader, contract.name)] + own + extraHeaders
    }

    /// Response `response` of contract `index` for one request: its placeholders filled from
    /// `baseURL` (a session's is `…/s/ID`), the request's `path` (its parameters), `query` and
    /// `body` (read only by `{{body…}}`), `{{counter}}` counted by `counting`. `filled`: a body
    /// filled already (a `{{baseURL}}`-only one, built once the port was known), sent as it is.
    package func render(
        contract index: Int, response: Int, baseURL: String, path: String, query: [QueryArgument], body requestBody: EchoBody,
        counting: AnswerCounter, filled: [UInt8]? = nil
    ) -> GeneratedResponse {
        let contract = set.contracts[index]
        let definition = contract.responses[response]
        let body =
            filled
            ?? definition.template?.render(
                baseURL: baseURL, pathParameters: contract.request.path.parameterValues(in: path), query: query, body: requestBody,
                counting: counting) ?? definition.body
        return GeneratedResponse(
            status: definition.status, contentType: definition.contentType ?? "", body: body, headers: headers(contract: index, response: response))
    }
}
