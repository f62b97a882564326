import DecodingDiagnostics
import Foundation
import MockAPICore

extension ContractRunner {
    /// The served body's rare forms its `schema` allows, each decoded with the route's own decoder
    /// (bytes in, no request: the server would serve them the same way), in a decoding child when
    /// the run has one (``DecodingChild``: a decoder that traps ends the child, not the run). What
    /// the decoder refuses, or crashes on, goes into the result with the change, its JSON path and
    /// value, and the decoder's error or the signal.
    func checkVariants(of body: Data, shape: JSONValueSchema, response: String, decoder: ResponseDecoder, into result: inout RouteResult) {
        guard let served = try? JSONParser.parse(Array(body)) else { return }
        let (variants, leftOut) = ResponseVariants.of(served, shape: shape)
        result.variantsChecked += variants.count
        result.variantsLeftOut += leftOut
        for variant in variants {
            let data = Data(variant.body.serialized.utf8)
            var failure = RouteResult.VariantFailure(
                response: response, label: variant.label, path: variant.path, value: variant.value.map(\.serialized) ?? "absent", error: "")
            switch options.decodingChild?.decode(route: result.name, response: response, body: data) ?? .unavailable {
            case .decoded:
                continue
            case .refused(let error):
                failure.error = error
            case .crashed(let how, let message):
                failure.crash = how
                failure.error = message.isEmpty ? "\(decoder.modelName): the process ended" : "\(decoder.modelName): \(message)"
            case .unavailable:
                do {
                    _ = try decoder.decode(data)
                    continue
                } catch {
                    failure.error = Self.variantError(error, data: data, decoder: decoder)
                }
            }
            result.variantFailures.append(failure)
        }
    }

    /// A decoder's error on a variant: `Model: path: message`.
    static func variantError(_ error: any Error, data: Data, decoder: ResponseDecoder) -> String {
        let failure = decodingFailure(error, data: data)
        return "\(decoder.modelName): " + [failure.path, failure.message].filter { !$0.isEmpty }.joined(separator: ": ")
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
