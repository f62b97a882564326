import CMicroHTTPD
import SystemLibc

/// A PEM certificate (chain) and its private key, checked as a pair, for HTTPS.
///
/// ```swift
/// configuration.tls = try TLSCredentials(certificatePEM: certificate, keyPEM: key)
/// ```
package final class TLSCredentials: @unchecked Sendable {
    // Why unchecked: two C strings written once in init, freed in deinit, only read in between.
    // libmicrohttpd takes them as pointers (MHD_OPTION_HTTPS_MEM_*), so they live as long as
    // the configuration that holds them, which outlives the daemon.
    let certificate: UnsafeMutablePointer<CChar>
    let key: UnsafeMutablePointer<CChar>

    /// Why a certificate and key cannot be used.
    package struct Refusal: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Throws GnuTLS's reason when the two are not a usable PEM certificate and matching key.
    package init(certificatePEM: String, keyPEM: String) throws(Refusal) {
        if let reason = MHDDaemon.tlsRefusal(certificatePEM: certificatePEM, keyPEM: keyPEM) { throw Refusal(description: reason) }
        certificate = strdup(certificatePEM)
        key = strdup(keyPEM)
    }

    deinit {
        free(certificate)
        free(key)
    }
}

extension ServerConfiguration {
    var scheme: String { tls == nil ? "http" : "https" }

    var tlsFlags: UInt32 { tls == nil ? 0 : MHD_USE_TLS.rawValue }

    /// The key and certificate options, or none for plain HTTP.
    var tlsOptions: [MHD_OptionItem] {
        guard let tls else { return [] }
        return [
            MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(tls.key)),
            MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(tls.certificate)),
        ]
    }
}
