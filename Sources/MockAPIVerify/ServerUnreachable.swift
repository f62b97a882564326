import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a server did not answer, in a few words instead of an `NSError` dump.
package enum ServerUnreachable {
    /// `connection refused`, `no answer in time`, …; nil for an error that is not about reaching it.
    package static func reason(_ error: any Error) -> String? {
        guard let error = error as? URLError else { return nil }
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .timedOut: return "no answer in time"
        case .cannotFindHost, .dnsLookupFailed: return "its host name does not resolve"
        case .networkConnectionLost: return "the connection closed before an answer"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return "the TLS handshake failed"
        default: return error.localizedDescription
        }
    }
}
