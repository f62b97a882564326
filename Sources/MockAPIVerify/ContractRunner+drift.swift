import Foundation
import MockAPICore

extension ContractRunner {
    /// The drift warning for a decoded answer, from what its decoder read (when that can be
    /// known) and its value re-encoded (when the model is `Encodable`); why drift cannot be
    /// checked when neither is available.
    func drift(
        _ exchange: Exchange, value: Any, contract: Contract, index: Int, decoder: ResponseDecoder
    ) -> Result<String?, ResponseDecoder.DriftUnavailable> {
        let encode = try? decoder.reencode.get()
        let reads = (try? decoder.keyReads.get()).flatMap { $0(exchange.body) }
        guard encode != nil || reads != nil else {
            // The re-encoding's reason: it says what would make drift checkable (an encoder).
            if case .failure(let unavailable) = decoder.reencode { return .failure(unavailable) }
            return .failure(.init(reason: "\(decoder.modelName): its keys could not be recorded"))
        }
        return .success(driftWarning(exchange, value: value, encode: encode, reads: reads, contract: contract, index: index, decoder: decoder))
    }
}
