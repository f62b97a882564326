import Foundation
import MockAPICommandKit
import MockAPIServer

/// `--tls-cert`/`--tls-key` and `--tls-self-signed`: the files read and checked before the
/// server starts, every problem a one-line reason and exit 2.
extension ServerOptions {
    func checkTLS() throws {
        guard (listening.tlsCert == nil) == (listening.tlsKey == nil) else { throw CommandFailure.usage("--tls-cert and --tls-key go together") }
        guard !(listening.tlsSelfSigned && listening.tlsCert != nil) else { throw CommandFailure.usage("--tls-self-signed makes its own certificate: drop --tls-cert and --tls-key") }
    }

    /// The credentials to serve HTTPS with (nil: plain HTTP), and the generated certificate, if one was made.
    func loadTLS() throws -> (credentials: TLSCredentials, generated: SelfSignedCertificate?)? {
        var generated: SelfSignedCertificate?
        let certificateFile: String, keyFile: String
        if listening.tlsSelfSigned {
            do { generated = try SelfSignedCertificate.generate() } catch { throw CommandFailure.unusable("--tls-self-signed: \(error.description)") }
            (certificateFile, keyFile) = (generated!.certificate.path, generated!.key.path)
        } else if let tlsCert = listening.tlsCert, let tlsKey = listening.tlsKey {
            (certificateFile, keyFile) = (tlsCert, tlsKey)
        } else {
            return nil
        }
        let certificate = try read(certificateFile, flag: "--tls-cert")
        let key = try read(keyFile, flag: "--tls-key")
        guard certificate.contains("-----BEGIN CERTIFICATE-----") else {
            generated?.remove()
            throw CommandFailure.unusable(#"--tls-cert "\#(certificateFile)" holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)"#)
        }
        guard key.contains("PRIVATE KEY-----") else {
            generated?.remove()
            throw CommandFailure.unusable(#"--tls-key "\#(keyFile)" holds no PEM private key (no "-----BEGIN … PRIVATE KEY-----" line)"#)
        }
        do {
            return (try TLSCredentials(certificatePEM: certificate, keyPEM: key), generated)
        } catch {
            generated?.remove()
            throw CommandFailure.unusable(#"--tls-cert "\#(certificateFile)" and --tls-key "\#(keyFile)" cannot be used: \#(error.description)"#)
        }
    }

    private func read(_ file: String, flag: String) throws -> String {
        try String(decoding: FlagFile.read(file, flag: flag), as: UTF8.self)
    }
}
