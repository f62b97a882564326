/// One page of the pet list.
struct PetPage: Codable, Sendable, Equatable {
    var pets: [Pet]
    var totalCount: Int
}
