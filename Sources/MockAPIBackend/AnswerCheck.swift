import Foundation
import MockAPICore

/// Whether a real answer is one the mock promises for the contract: a status it declares, that
/// response's content type, the protocol headers it declares (`ProtocolHeaders`), and the
/// response's `schema` where it declares one, else the shape of its fixture (keys, JSON types,
/// nulls, array elements).
/// When several responses share the status, the one the answer fits best is the one reported.
enum AnswerCheck {
    /// Headers a client acts on by protocol: a redirect without `Location`, a login without
    /// `Set-Cookie` or a 206 without `Content-Range` breaks it whatever the body. Only their presence
    /// is checked (values carry ids, dates and redacted secrets); other declared headers, which a
    /// document may list without the backend always sending them, are not.
    static let protocolHeaders = ["Location", "Set-Cookie", "Content-Range", "ETag", "WWW-Authenticate"]

    static func check(_ contract: Contract, status: Int, header: (String) -> String?, body: Data) -> (failures: [String], notes: [String]) {
        let candidates = contract.responses.filter { $0.status == status }
        guard !candidates.isEmpty else {
            let declared = Set(contract.responses.map(\.status)).sorted().map(String.init).joined(separator: ", ")
            let excerpt = String(decoding: body.prefix(160), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            return (["status \(status) is not one the contract declares (\(declared))" + (excerpt.isEmpty ? "" : ": \(excerpt)")], [])
        }
        return candidates.map { check($0, header: header, body: body) }.min { $0.failures.count < $1.failures.count }!
    }

    private static func check(_ response: ResponseDefinition, header: (String) -> String?, body: Data) -> (failures: [String], notes: [String]) {
        let file = response.fixture.map { "fixture \($0)" } ?? "response \(response.name)"
        var failures: [String] = [], notes: [String] = []
        for name in protocolHeaders where header(name) == nil && response.headers.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
            failures.append("header \(name) is missing from the backend's answer (response \(response.name) declares it)")
        }
        guard !response.body.isEmpty else { return (failures, notes) }
        let contentType = header("Content-Type")
        let promised = MediaType.essence(of: response.contentType ?? "application/json")
        // An answer without a type is bytes (RFC 9110 §8.3), what the mock serves for a `.bin` fixture.
        let received = contentType.map { MediaType.essence(of: $0) } ?? (promised == MediaType.bytes ? promised : "none")
        if promised != received { failures.append("Content-Type is \(received), the mock promises \(promised) (\(response.name))") }
        guard promised == "application/json" || promised.hasSuffix("+json") else { return (failures, notes) }
        guard let fixture = try? JSONParser.parse(response.body) else {
            notes.append("\(file) is not plain JSON (a template?): its shape was not compared")
            return (failures, notes)
        }
        guard let answer = try? JSONParser.parse(body) else {
            failures.append("the body is not JSON (\(file) is)")
            return (failures, notes)
        }
        // A declared `schema` is what the answer must be: the fixture is one answer of many, so
        // its differences from the real one are notes, not failures.
        if let shape = response.shape {
            failures += ShapeMismatch.violations(of: answer, against: shape).map { "\($0.location): \($0.message) (schema of response \(response.name))" }
        }
        var shapes = JSONShapeComparison(missing: "is missing from the backend's answer", extra: "sent by the backend is not in the fixture")
        shapes.compare(fixture, answer, at: "$")
        for difference in shapes.differences {
            let line = "\(difference.path): \(difference.message) (\(file))"
            if difference.breaking, response.shape == nil { failures.append(line) } else { notes.append(line) }
        }
        return (failures, notes)
    }
}
