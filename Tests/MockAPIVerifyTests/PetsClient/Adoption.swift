/// The JSON body of an adoption request (`{"adopter_name": …}`).
struct Adoption: Encodable, Sendable {
    var adopterName: String
}
