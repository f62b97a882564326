/// An animal in the pets API; the body spells keys in snake_case (`owner_name`).
struct Pet: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var species: String
    /// `nil` until someone adopts the pet.
    var ownerName: String?
}
