import DecodingDiagnostics
import Foundation
import MockAPICore

extension ContractRunner {
    /// The served body's rare forms its `schema` allows, each decoded with the route's own decoder
    /// (bytes in, no request: the server would serve them the same way). What the decoder refuses
    /// goes into the result with the change, its JSON path and value, and the decoder's error.
    func checkVariants(of body: Data, shape: JSONValueSchema, response: String, decoder: ResponseDecoder, into result: inout RouteResult) {
        guard let served = try? JSONParser.parse(Array(body)) else { return }
        let (variants, leftOut) = ResponseVariants.of(served, shape: shape)
        result.variantsChecked += variants.count
        result.variantsLeftOut += leftOut
        for variant in variants {
            let data = Data(variant.body.serialized.utf8)
            do {
                _ = try decoder.decode(data)
            } catch {
                let failure = Self.decodingFailure(error, data: data)
                let error = [failure.path, failure.message].filter { !$0.isEmpty }.joined(separator: ": ")
                result.variantFailures.append(
                    RouteResult.VariantFailure(
                        response: response, label: variant.label, path: variant.path, value: variant.value.map(\.serialized) ?? "absent",
                        error: "\(decoder.modelName): \(error)"))
            }
        }
    }

    /// Any error a decoder throws, as a path and a message (a `DecodingError` located in the body).
    static func decodingFailure(_ error: any Error, data: Data) -> DecodingFailure {
        switch error {
        case let error as DecodingError: DecodingFailure(error, data: data, endpoint: "")
        case let described as DecodingFailure: described
        default: DecodingFailure(endpoint: "", path: "", message: "\(error)")
        }
    }
}
