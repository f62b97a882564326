import Foundation
import MockAPICore

extension ConformingRequest {
    /// Sends the contract's conforming request (what `verify-backend` would send it) to a server
    /// on 127.0.0.1, on a connection of its own. Each part carries JPEG bytes, so a part that checks
    /// its bytes against an image type takes them.
    static func send(for contract: Contract, port: Int) throws -> RawHTTP.Response {
        let request = ConformingRequest(contract: contract, partContent: jpegBytes(1000))
        return try RawHTTP.request(
            port, request.method.rawValue, request.target,
            headers: Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), body: request.body ?? Data())
    }
}
