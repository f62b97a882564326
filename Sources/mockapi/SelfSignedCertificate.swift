import Foundation
import MockAPICore

/// A certificate for localhost and 127.0.0.1, made by `openssl` in a private temporary folder
/// at start, for `serve --tls-self-signed`. Valid 30 days; removed when the server stops.
struct SelfSignedCertificate {
    let folder: URL
    var certificate: URL { folder.appendingPathComponent("cert.pem") }
    var key: URL { folder.appendingPathComponent("key.pem") }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func generate() throws(Failure) -> SelfSignedCertificate {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-tls-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { // 0700: the key stays private
            throw Failure(description: "cannot make a temporary folder: \(String(cString: strerror(errno)))")
        }
        let created = SelfSignedCertificate(folder: URL(fileURLWithPath: String(cString: made)))
        let openssl = ChildProcess()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Apple platforms trust a server certificate only with a subjectAltName and the serverAuth
        // extended key usage, and at most 825 days; 30 is plenty for a development server.
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-addext", "extendedKeyUsage=serverAuth",
            "-keyout", created.key.path, "-out", created.certificate.path,
        ]
        let errors = Pipe()
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = errors
        do { try openssl.run() } catch {
            created.remove()
            throw Failure(description: "cannot run openssl: \(error.localizedDescription)")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else {
            created.remove()
            let reason =
                openssl.terminationStatus == 127
                ? "openssl is not on PATH"
                : "openssl exited with \(openssl.terminationStatus): \(said.split(separator: "\n").last ?? "")"
            throw Failure(description: reason)
        }
        return created
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
