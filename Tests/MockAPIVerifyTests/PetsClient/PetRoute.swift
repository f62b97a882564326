import ClientKit

/// Every call a small second client makes to a pets API: the router pattern on ClientKit,
/// defined only in this test target to show the runner verifying a client it does not know.
enum PetRoute: EndpointConvertible, Sendable {
    case pets(species: String? = nil, page: Int? = nil)
    case pet(id: Int)
    case adopt(petId: Int, adopterName: String)

    var endpoint: Endpoint {
        switch self {
        case let .pets(species, page):
            Endpoint(.get, "/v2/pets", query: [QueryItem("species", species.map(QueryValue.string)), QueryItem("page", page.map(QueryValue.int))])
        case let .pet(id):
            Endpoint(.get, "/v2/pets/\(id)")
        case let .adopt(petId, adopterName):
            Endpoint(.post, "/v2/pets/\(petId)/adoption", body: .json(Adoption(adopterName: adopterName)))
        }
    }

    /// The contract this route hits; exhaustive, so a new case needs a kind.
    var kind: PetRouteKind {
        switch self {
        case .pets: .listPets
        case .pet: .pet
        case .adopt: .adoptPet
        }
    }
}
