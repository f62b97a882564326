public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One operation of a client whose requests are built inside generated code (swift-openapi-generator's
/// `Client`): the check is the generated call itself, handed the ``OperationCall`` to send through.
///
/// ```swift
/// OperationCheck("getPetById") { call in
///     try await Client(serverURL: call.serverURL, transport: URLSessionTransport(),
///                      middlewares: [MockAPIMiddleware(call)]).getPetById(path: .init(petId: 1))
/// }
/// ```
///
/// The call's return value is the generated `Output`: a case named `undocumented` (a status the
/// document does not declare) fails the operation, and so does anything the call throws (a body
/// the generated types cannot decode).
public struct OperationCheck: Sendable {
    /// The operation's `operationId`: the operation's name in reports.
    public var operationID: String
    /// The contract the operation is meant to hit: nil for the one `mockapi import openapi` made of
    /// it (named after the operationId in snake_case: `getPetById` is `get_pet_by_id`).
    public var contract: String?
    /// The generated client's call, made through `call` (its server URL, its header fields).
    public var call: @Sendable (_ call: OperationCall) async throws -> any Sendable

    public init(_ operationID: String, contract: String? = nil, call: @escaping @Sendable (_ call: OperationCall) async throws -> any Sendable) {
        self.operationID = operationID
        self.contract = contract
        self.call = call
    }
}

/// The operation's name: what Swift Testing shows for each argument of `@Test(arguments: checks)`.
extension OperationCheck: CustomStringConvertible {
    public var description: String { operationID }
}

/// One call the runner makes of an operation: where to send it, which header fields to add
/// (`Prefer: example=NAME` when it asks for a named response), and where the client's middleware
/// records the request it sent and the answer it got, so that uploads and refusals can be
/// reported as `mockapi verify` reports them.
public final class OperationCall: Sendable {
    /// The mock server's base URL: the generated `Client`'s `serverURL` (plus the document's
    /// server path, when its contracts were imported with one).
    public let serverURL: URL
    /// The response asked for; nil for the plain call, which gets whatever the contract answers it with.
    public let response: String?
    /// Header fields to add to the request: `["Prefer": "example=NAME"]` when a response is asked for.
    public var headerFields: [String: String] { response.map { ["Prefer": "example=\($0)"] } ?? [:] }

    struct Recorded {
        var request: URLRequest?
        var response: HTTPURLResponse?
        var body = Data()
    }

    private let recorded = Mutex(Recorded())

    init(serverURL: URL, response: String?) {
        self.serverURL = serverURL
        self.response = response
    }

    /// The request as it leaves the client (method, URL, header fields, body): a multipart body's
    /// parts are compared with those the server journaled, and a raw body's size.
    public func record(request: URLRequest) {
        recorded.withLock { $0.request = request }
    }

    /// The answer as it reached the client, before the generated code decoded it.
    public func record(response: HTTPURLResponse, body: Data) {
        recorded.withLock {
            $0.response = response
            $0.body = body
        }
    }

    var snapshot: Recorded { recorded.withLock { $0 } }
}
