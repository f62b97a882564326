public import Foundation

/// Decodes a response body the way the client does, and, when it can, decodes it again through a
/// key-recording decoder and re-encodes the result, so the runner finds fixture keys the model
/// never reads, keys it asks for under another name, and values it lost (drift).
///
/// ```swift
/// .decoding(Project.self, with: myDecoder)                     // drift via a mirrored encoder
/// .decoding(Project.self, with: myDecoder, encoder: myEncoder) // drift via the client's encoder
/// .custom("Project") { data in try MyParser.project(from: data) }  // any decoder; no drift
/// ```
public struct ResponseDecoder: Sendable {
    /// The model's name in reports.
    public var modelName: String
    let decode: @Sendable (Data) throws -> Any
    /// Turns a decoded value back into JSON, or says why drift cannot be checked.
    let reencode: Result<@Sendable (Any) throws -> Data, DriftUnavailable>
    /// Which body keys the model's own `init(from:)` reads (a second decode through a
    /// key-recording decoder), or why that cannot be known.
    var keyReads: Result<@Sendable (Data) -> KeyReads?, DriftUnavailable> = .failure(DriftUnavailable(reason: ""))

    struct DriftUnavailable: Error {
        var reason: String
    }

    /// Decodes with the client's own `JSONDecoder`.
    ///
    /// Drift is checked from the keys `M.init(from:)` reads (a second decode that records them,
    /// for the default and snake_case key strategies), and, when `M` is `Encodable`, from the
    /// value re-encoded with `encoder` or, when none is given, one that writes keys the way
    /// `decoder` reads them. A custom key strategy needs the client's encoder; without it drift
    /// is reported as not checked.
    public static func decoding<M: Decodable & SendableMetatype>(_ type: M.Type, with decoder: JSONDecoder, encoder: JSONEncoder? = nil) -> ResponseDecoder {
        let name = String(describing: M.self)
        let reencode: Result<@Sendable (Any) throws -> Data, DriftUnavailable>
        if M.self is any Encodable.Type {
            if let encoder = encoder ?? mirroredEncoder(for: decoder) {
                reencode = .success { value in
                    guard let encodable = value as? any Encodable else { throw DriftUnavailable(reason: "\(name) is not Encodable") }
                    return try encodeJSON(encodable, with: encoder)
                }
            } else {
                reencode = .failure(DriftUnavailable(reason: "\(name): its decoder has a custom key strategy and no encoder was given"))
            }
        } else {
            reencode = .failure(DriftUnavailable(reason: "\(name) is not Encodable"))
        }
        var result = ResponseDecoder(modelName: name, decode: { try decoder.decode(M.self, from: $0) }, reencode: reencode)
        if let keys = KeyReads.KeyStrategy(decoder.keyDecodingStrategy) {
            result.keyReads = .success { data in KeyReads.of(M.self, in: data, keys: keys, userInfo: decoder.userInfo) }
        } else {
            result.keyReads = .failure(DriftUnavailable(reason: "\(name): its decoder has a custom key strategy"))
        }
        return result
    }

    /// Decodes with any code of the client's: a hand-written parser, another format's decoder.
    /// Drift cannot be checked: which keys a closure reads cannot be known, and there is no way
    /// back to JSON. A thrown `DecodingError` is reported like `decoding(_:with:)`'s, with its
    /// JSON path; any other error by its description.
    public static func custom(_ modelName: String, _ decode: @escaping @Sendable (Data) throws -> Any) -> ResponseDecoder {
        let unknown = DriftUnavailable(reason: "\(modelName) is decoded by custom code (.custom), so which keys it reads cannot be known")
        var result = ResponseDecoder(modelName: modelName, decode: decode, reencode: .failure(unknown))
        result.keyReads = .failure(unknown)
        return result
    }

    private static func encodeJSON(_ value: some Encodable, with encoder: JSONEncoder) throws -> Data {
        try encoder.encode(value)
    }

    /// An encoder that writes the keys `decoder` reads, for the strategies that have an inverse.
    private static func mirroredEncoder(for decoder: JSONDecoder) -> JSONEncoder? {
        let encoder = JSONEncoder()
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys: encoder.keyEncodingStrategy = .useDefaultKeys
        case .convertFromSnakeCase: encoder.keyEncodingStrategy = .convertToSnakeCase
        default: return nil
        }
        return encoder
    }
}
