import ArgumentParser
import Foundation
import MockAPIServer
import MockAPIVerifyCommand

/// `--tls-cert`/`--tls-key` and `--tls-self-signed`: the files read and checked before the
/// server starts, every problem a one-line reason and exit 2.
extension MockAPICommand.Serve {
    func validateTLS() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard !(tlsSelfSigned && tlsCert != nil) else { throw ValidationError("--tls-self-signed makes its own certificate: drop --tls-cert and --tls-key") }
    }

    /// The credentials to serve HTTPS with (nil: plain HTTP), and the generated certificate, if one was made.
    func loadTLS() throws -> (credentials: TLSCredentials, generated: SelfSignedCertificate?)? {
        var generated: SelfSignedCertificate?
        let certificateFile: String, keyFile: String
        if tlsSelfSigned {
            do { generated = try SelfSignedCertificate.generate() } catch { fail("--tls-self-signed: \(error.description)") }
            (certificateFile, keyFile) = (generated!.certificate.path, generated!.key.path)
        } else if let tlsCert, let tlsKey {
            (certificateFile, keyFile) = (tlsCert, tlsKey)
        } else {
            return nil
        }
        let certificate = try read(certificateFile, flag: "--tls-cert")
        let key = try read(keyFile, flag: "--tls-key")
        guard certificate.contains("-----BEGIN CERTIFICATE-----") else {
            generated?.remove()
            fail(#"--tls-cert "\#(certificateFile)" holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)"#)
        }
        guard key.contains("PRIVATE KEY-----") else {
            generated?.remove()
            fail(#"--tls-key "\#(keyFile)" holds no PEM private key (no "-----BEGIN … PRIVATE KEY-----" line)"#)
        }
        do {
            return (try TLSCredentials(certificatePEM: certificate, keyPEM: key), generated)
        } catch {
            generated?.remove()
            fail(#"--tls-cert "\#(certificateFile)" and --tls-key "\#(keyFile)" cannot be used: \#(error.description)"#)
        }
    }

    private func read(_ file: String, flag: String) throws -> String {
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { fail(#"\#(flag) "\#(file)" cannot be read: \#(String(cString: strerror(errno)))"#) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard let data = try? handle.readToEnd() else { fail(#"\#(flag) "\#(file)" cannot be read: it is not a regular file"#) }
        return String(decoding: data, as: UTF8.self)
    }

    private func fail(_ reason: String) -> Never {
        Output.error("mockapi: \(reason)")
        MockAPICommand.exit(withError: ExitCode(2))
    }
}
