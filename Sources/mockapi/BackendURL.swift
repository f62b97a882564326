import Foundation
import MockAPICommandKit

/// A real backend's address as a flag gives it (`record --target`, `serve --proxy-unmatched`).
enum BackendURL {
    /// A usage failure for a URL that is not `http(s)://host[:port][/prefix]`.
    static func check(_ text: String, flag: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else {
            throw CommandFailure.usage("\(flag) \(text): expected http:// or https:// with a host (and optionally a path prefix), no query")
        }
    }

    /// Unusable for a CA file that cannot be read (not a regular file, over `FlagFile.maxBytes`)
    /// or holds no certificate.
    static func check(caFile: String?, flag caFlag: String) throws {
        if let caFile {
            let bundle = try FlagFile.read(caFile, flag: caFlag)
            guard String(decoding: bundle, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
                throw CommandFailure.unusable(#"\#(caFlag) "\#(caFile)" holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)"#)
            }
        }
    }
}
