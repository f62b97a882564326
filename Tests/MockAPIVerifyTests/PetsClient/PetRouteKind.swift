import ClientKit
import MockAPIVerify
import MockAPIVerifyClientKit

/// The pets client's route kinds as the runner enumerates them; the raw value is the contract name.
enum PetRouteKind: String, CaseIterable, VerifiableRouteKind {
    case listPets = "list_pets"
    case pet
    case adoptPet = "adopt_pet"

    var contractName: String { rawValue }

    /// A route of this kind the pets contracts accept.
    var sample: PetRoute {
        switch self {
        case .listPets: .pets(species: "dog", page: 1)
        case .pet: .pet(id: 7)
        case .adoptPet: .adopt(petId: 7, adopterName: "Ada")
        }
    }

    var sampleEndpoint: Endpoint { sample.endpoint }

    var responseDecoders: [String: ResponseDecoder] {
        switch self {
        case .listPets: ["default": .clientKit(PetPage.self)]
        case .pet: ["default": .clientKit(Pet.self), "not_found": .clientKit(ErrorEnvelope.self)]
        case .adoptPet: ["default": .clientKit(Pet.self)]
        }
    }
}
