import Foundation
import MockAPIVerify
import OpenAPIRuntime
import OpenAPIURLSession
import PetstoreClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every operation of the generated Petstore client as a check: the generated call, made as the
/// app makes it (its own `Authentication` middleware, URLSessionTransport), with the runner's
/// `MockAPIMiddleware` last, next to the transport.
enum PetstoreOperations {
    static let credentials = Authentication(token: "test-token", apiKey: "test-key")

    /// Declines HTTP authentication challenges: on Linux a session without a delegate waits for
    /// ever on a 401 carrying `WWW-Authenticate: Basic` (docs/swift.md).
    static let transport = URLSessionTransport(
        configuration: .init(session: URLSession(configuration: .ephemeral, delegate: DecliningAuthChallenges(), delegateQueue: nil)))

    /// - Parameter authentication: the app's middleware; nil plants a client that sends no credentials.
    static func all(authentication: Authentication? = credentials) -> [OperationCheck] {
        func check(_ operationID: String, _ operation: @escaping @Sendable (Client) async throws -> any Sendable) -> OperationCheck {
            OperationCheck(operationID) { call in
                let middlewares: [any ClientMiddleware] = (authentication.map { [$0] } ?? []) + [MockAPIMiddleware(call)]
                return try await operation(Client(serverURL: call.serverURL, transport: transport, middlewares: middlewares))
            }
        }
        let pet = Components.Schemas.Pet(
            id: 10, name: "doggie", category: .init(id: 1, name: "Dogs"), photoUrls: ["https://example.com/doggie.jpg"], status: .available)
        let order = Components.Schemas.Order(id: 10, petId: 198_772, quantity: 7, status: .approved, complete: true)
        let user = Components.Schemas.User(id: 10, username: "theUser", firstName: "John", email: "john@email.com", password: "12345")
        let image = Data((0..<512).map { UInt8($0 % 251) })
        return [
            check("addPet") { try await $0.addPet(body: .json(pet)) },
            check("updatePet") { try await $0.updatePet(body: .json(pet)) },
            check("findPetsByStatus") { try await $0.findPetsByStatus(query: .init(status: .available)) },
            check("findPetsByTags") { try await $0.findPetsByTags(query: .init(tags: ["tag1", "tag2"])) },
            check("getPetById") { try await $0.getPetById(path: .init(petId: 10)) },
            check("updatePetWithForm") { try await $0.updatePetWithForm(path: .init(petId: 10), query: .init(name: "doggie", status: "sold")) },
            check("deletePet") { try await $0.deletePet(path: .init(petId: 10), headers: .init(apiKey: "test-key")) },
            check("uploadFile") {
                try await $0.uploadFile(path: .init(petId: 10), query: .init(additionalMetadata: "cover"), body: .binary(HTTPBody(image)))
            },
            check("getInventory") { try await $0.getInventory() },
            check("placeOrder") { try await $0.placeOrder(body: .json(order)) },
            check("getOrderById") { try await $0.getOrderById(path: .init(orderId: 10)) },
            check("deleteOrder") { try await $0.deleteOrder(path: .init(orderId: 10)) },
            check("createUser") { try await $0.createUser(body: .json(user)) },
            check("createUsersWithListInput") { try await $0.createUsersWithListInput(body: .json([user])) },
            check("loginUser") { try await $0.loginUser(query: .init(username: "theUser", password: "12345")) },
            check("logoutUser") { try await $0.logoutUser() },
            check("getUserByName") { try await $0.getUserByName(path: .init(username: "theUser")) },
            check("updateUser") { try await $0.updateUser(path: .init(username: "theUser"), body: .json(user)) },
            check("deleteUser") { try await $0.deleteUser(path: .init(username: "theUser")) },
        ]
    }
}
