import MockAPICore
import MockAPIServer
import MockAPITestSupport

/// The pets API's contracts and fixtures, written to a temporary set per test.
enum PetsAPI {
    static let contracts = [
        "pets/list_pets.json": #"""
        {
          "name": "list_pets",
          "request": {
            "method": "GET",
            "path": "/v2/pets",
            "query": {"species": {"type": "string", "required": false}, "page": {"type": "int", "required": false}}
          },
          "responses": {"default": {"status": 200, "fixture": "pets/list.json"}}
        }
        """#,
        "pets/pet.json": #"""
        {
          "name": "pet",
          "request": {"method": "GET", "path": "/v2/pets/{id:int}"},
          "responses": {
            "default": {"status": 200, "fixture": "pets/pet.json"},
            "not_found": {"status": 404, "fixture": "errors/not_found.json"}
          }
        }
        """#,
        "pets/adopt_pet.json": #"""
        {
          "name": "adopt_pet",
          "request": {"method": "POST", "path": "/v2/pets/{id:int}/adoption", "json": {"adopter_name": {"type": "string"}}},
          "responses": {"default": {"status": 200, "fixture": "pets/adopted.json"}}
        }
        """#,
    ]

    static let fixtures = [
        "pets/list.json": #"""
        {
          "pets": [
            {"id": 7, "name": "Biscuit", "species": "dog", "owner_name": null},
            {"id": 9, "name": "Pickle", "species": "dog", "owner_name": "Grace"}
          ],
          "total_count": 2
        }
        """#,
        "pets/pet.json": #"{"id": 7, "name": "Biscuit", "species": "dog", "owner_name": null}"#,
        "pets/adopted.json": #"{"id": 7, "name": "Biscuit", "species": "dog", "owner_name": "Ada"}"#,
        "errors/not_found.json": #"{"error_messages": ["No pet with that id."], "http_code": 404}"#,
    ]

    /// A fresh temporary copy of the pets contracts and fixtures.
    static func contractSet() throws -> TemporaryContractSet {
        try TemporaryContractSet(contracts: contracts, fixtures: fixtures)
    }
}
