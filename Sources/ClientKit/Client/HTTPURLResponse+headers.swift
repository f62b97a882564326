import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// `Retry-After` given in seconds; the HTTP-date form is not honoured.
    var retryAfter: Duration? {
        guard let text = value(forHTTPHeaderField: "Retry-After"),
            let seconds = Int(text.trimmingCharacters(in: .whitespaces)), seconds >= 0
        else { return nil }
        return .seconds(seconds)
    }

    /// Whether the body is labelled JSON (`application/json`, `application/problem+json`, …);
    /// an unlabelled body is given the benefit of the doubt.
    var isLabelledJSON: Bool {
        guard let contentType = value(forHTTPHeaderField: "Content-Type") else { return true }
        let mediaType =
            contentType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
