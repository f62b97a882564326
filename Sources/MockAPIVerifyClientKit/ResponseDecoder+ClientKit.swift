import ClientKit
import Foundation
@_exported import MockAPIVerify

extension ResponseDecoder {
    /// Decodes with ClientKit's ``APIClient`` decoder (snake_case keys, dates in seconds since
    /// 1970), and checks drift with its encoder: for clients built on ClientKit only. A client
    /// with its own decoder uses `.decoding(M.self, with: itsDecoder)`, or this would pass a
    /// decoder that the app does not use.
    public static func clientKit<M: Decodable & Sendable>(_ type: M.Type) -> ResponseDecoder {
        withClientKitCoders(type)
    }

    /// The same, for a model type only known at run time.
    public static func clientKit(_ type: any (Decodable & Sendable).Type) -> ResponseDecoder {
        withClientKitCoders(type)
    }

    private static func withClientKitCoders<M: Decodable & Sendable>(_ type: M.Type) -> ResponseDecoder {
        let client = APIClient(configuration: ClientConfiguration(environment: .local(port: 0)))
        return decoding(type, with: client.decoder, encoder: client.encoder)
    }
}
