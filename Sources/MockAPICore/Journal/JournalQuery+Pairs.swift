extension JournalQuery {
    /// The query as `GET /__mockapi/requests` reads it back (`init(pairs:)`): what a reader in
    /// another process sends.
    package var pairs: [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        if let since { pairs.append(("since", String(since))) }
        if let limit { pairs.append(("limit", String(limit))) }
        if let contract { pairs.append(("contract", contract)) }
        if unmatched { pairs.append(("unmatched", "true")) }
        if violations { pairs.append(("violations", "true")) }
        if let header { pairs.append(("header", "\(header.name):\(header.value)")) }
        if let method { pairs.append(("method", method)) }
        if let path { pairs.append(("path", path)) }
        if let status { pairs.append(("status", String(status))) }
        return pairs
    }
}
