import Testing

@testable import MockAPICore

/// `MediaType.forFile` (the extension after the last dot of the file's own name, any case) and
/// `MediaType.essence`, both read as bytes.
struct MediaTypeTests {
    @Test func theExtensionOfTheFilesOwnNameDecides() {
        let cases: [(String, String)] = [
            ("users.json", "application/json"), ("deep/dir/USERS.JSON", "application/json"), ("a.Json", "application/json"),
            ("archive.tar.gz", "application/octet-stream"), ("photo.jpeg", "image/jpeg"), ("photo.JPG", "image/jpeg"),
            ("page.htm", "text/html; charset=utf-8"), ("notes.txt", "text/plain; charset=utf-8"), ("icon.svg", "image/svg+xml"),
            ("v1.json/data", "application/octet-stream"), ("json", "application/octet-stream"), ("file.", "application/octet-stream"),
            (".json", "application/json"), ("café.PNG", "image/png"), ("x.jsoN\u{301}", "application/octet-stream"), ("", "application/octet-stream"),
        ]
        for (name, type) in cases {
            #expect(MediaType.forFile(named: name) == type, "\(name.debugDescription)")
        }
    }

    @Test func anEssenceIsTheTypeLowercasedWithoutParametersOrBlanks() {
        let cases: [(String, String)] = [
            (" Application/JSON ; charset=utf-8", "application/json"), ("\ttext/html\t", "text/html"), ("TEXT/PLAIN", "text/plain"),
            ("multipart/form-data; boundary=X", "multipart/form-data"), ("", ""), (";", ""), ("  ", ""), ("ÄPPLICATION/X", "äpplication/x"),
            ("application/vnd.api+json", "application/vnd.api+json"), ("a/b;c;d", "a/b"),
        ]
        for (value, essence) in cases {
            #expect(MediaType.essence(of: value) == essence, "\(value.debugDescription)")
        }
    }
}
