import CMicroHTTPD
import MockAPICore

/// Creating libmicrohttpd responses from Swift values.
enum MHDResponse {
    /// A response MHD owns (it copies the bytes), with headers added.
    static func make(body: [UInt8], contentType: String?, headers: [(name: String, value: String)]) -> OpaquePointer {
        let response = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }!
        if let contentType { MHD_add_response_header(response, "Content-Type", contentType) }
        for header in headers { MHD_add_response_header(response, header.name, header.value) }
        return response
    }

    static func make(_ generated: GeneratedResponse) -> OpaquePointer {
        make(body: generated.body, contentType: generated.contentType, headers: generated.headers)
    }
}

/// Every contract response built once at start; queued as many times as requests ask for it.
///
/// MHD responses are reference counted and immutable once queued, so one can serve all
/// threads. Destroyed only after the daemon has stopped.
final class PreparedResponses: @unchecked Sendable {
    // Why unchecked: the pointers are written once in init and only read afterwards; MHD allows
    // one response to be queued on many connections at once.
    private let responses: [[OpaquePointer]]

    init(set: ContractSet) {
        responses = set.contracts.map { contract in
            contract.responses.map { definition in
                MHDResponse.make(body: definition.body, contentType: definition.contentType,
                                 headers: [("Mockapi-Contract", contract.name)] + definition.headers)
            }
        }
    }

    func response(contract: Int, response: Int) -> OpaquePointer { responses[contract][response] }

    func destroyAll() {
        for row in responses { for response in row { MHD_destroy_response(response) } }
    }
}
