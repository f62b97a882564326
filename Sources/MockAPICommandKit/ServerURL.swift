package import Foundation

extension ReportOptions {
    /// `--base-url` read as an http(s) URL, or the failure naming it (exit 2).
    package func serverURL(_ text: String, command: String) throws(CommandFailure) -> URL {
        try serverURL(text, program: "mockapi \(command)")
    }

    /// The same, for a program named in full.
    package func serverURL(_ text: String, program: String) throws(CommandFailure) -> URL {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw unusable(program: program, "--base-url \"\(text)\" is not an http(s) URL")
        }
        return url
    }
}
