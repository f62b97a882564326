import MockAPICore

/// `mockapi diff` as text, JSON and JUnit XML.
package enum DiffReport {
    /// Breaking changes first, then allowed ones, then compatible ones, and a summary line.
    package static func text(_ diff: ContractSetDiff, old: String, new: String) -> String {
        var lines = diff.changes.map(\.description)
        lines.append(
            "mockapi diff: \(old) (\(diff.oldCount) contracts) → \(new) (\(diff.newCount) contracts): "
                + "\(diff.breaking.count) breaking, \(diff.allowed.count) allowed, \(diff.compatible.count) compatible")
        return lines.joined(separator: "\n") + "\n"
    }

    package static func json(_ diff: ContractSetDiff, old: String, new: String) -> String {
        let changes: [JSONValue] = diff.changes.map { change in
            .object(
                JSONObject([
                    ("contract", .string(change.contract)), ("location", .string(change.location)),
                    ("id", .string(change.id)), ("impact", .string(change.impact.rawValue)),
                    ("allowed", .bool(change.allowed)), ("message", .string(change.message)),
                ]))
        }
        return JSONValue.object(
            JSONObject([
                ("old", .string(old)), ("new", .string(new)),
                ("breaking", .int(diff.breaking.count)), ("allowed", .int(diff.allowed.count)), ("compatible", .int(diff.compatible.count)),
                ("changes", .array(changes)),
            ])
        ).prettySerialized + "\n"
    }

    /// One testcase per contract that changed: failed when it has an unallowed breaking change.
    package static func junit(_ diff: ContractSetDiff) -> String {
        var byContract: [(String, [ContractChange])] = []
        for change in diff.changes {
            if let index = byContract.firstIndex(where: { $0.0 == change.contract }) {
                byContract[index].1.append(change)
            } else {
                byContract.append((change.contract, [change]))
            }
        }
        byContract.sort { $0.0 < $1.0 }
        let failures = byContract.filter { $0.1.contains { $0.impact == .breaking && !$0.allowed } }.count
        var xml = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="mockapi diff" tests="\#(byContract.count)" failures="\#(failures)">"#,
            #"  <testsuite name="mockapi diff" tests="\#(byContract.count)" failures="\#(failures)" errors="0" skipped="0">"#,
        ]
        for (contract, changes) in byContract {
            xml.append(#"    <testcase classname="mockapi.diff" name="\#(XMLText.escape(contract))">"#)
            for change in changes where change.impact == .breaking && !change.allowed {
                xml.append(#"      <failure type="breaking" message="\#(XMLText.escape(change.id + ": " + change.message))"/>"#)
            }
            let notes = changes.filter { $0.impact == .compatible || $0.allowed }.map(\.description)
            if !notes.isEmpty { xml.append("      <system-out>\(XMLText.escape(notes.joined(separator: "\n")))</system-out>") }
            xml.append("    </testcase>")
        }
        xml += ["  </testsuite>", "</testsuites>"]
        return xml.joined(separator: "\n") + "\n"
    }
}
