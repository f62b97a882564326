import MockAPICore

/// The machine report (`--format json`): stable keys, in a fixed order.
public enum JSONReport {
    public static func render(_ report: VerifyReport) -> String {
        let routes: [JSONValue] = report.routes.map { route in
            var request: JSONValue = nil
            if let sent = route.request {
                request = ["method": .string(sent.method), "url": .string(sent.url), "parts": .array(sent.parts.map(JSONValue.string))]
            }
            return [
                "name": .string(route.name),
                "contract": .string(route.contract),
                "outcome": .string(route.outcome.rawValue),
                "request": request,
                "failures": .array(route.failures.map { ["check": .string($0.check.rawValue), "message": .string($0.message)] }),
                "warnings": .array(route.warnings.map(JSONValue.string)),
                "unhandledResponses": .array(route.unhandledResponses.map(JSONValue.string)),
                "variants": [
                    "checked": .int(route.variantsChecked),
                    "leftOut": .int(route.variantsLeftOut),
                    "failures": .array(
                        route.variantFailures.map {
                            [
                                "response": .string($0.response), "label": .string($0.label), "path": .string($0.path), "value": .string($0.value), "error": .string($0.error),
                                "crash": $0.crash.map(JSONValue.string) ?? .null,
                            ]
                        }),
                ],
                "seconds": .double(route.seconds),
            ]
        }
        let document: JSONValue = [
            "summary": [
                "routes": .int(report.routes.count),
                "passed": .int(report.passed),
                "failed": .int(report.failed),
                "uncoveredContracts": .array(report.uncoveredContracts.map(JSONValue.string)),
                "strictCoverage": .bool(report.strictCoverage),
                "strictDrift": .bool(report.strictDrift),
                "variants": .bool(report.variants),
                "strictVariants": .bool(report.strictVariants),
                "notes": .array(report.notes.map(JSONValue.string)),
                "exitCode": .int(Int(report.exitCode)),
                "seconds": .double(report.seconds),
            ],
            "target": .string(report.target),
            "routes": .array(routes),
            "deadLinks": .array(
                report.deadLinks.map { link in
                    ["source": .string(link.source), "jsonPath": .string(link.jsonPath), "url": .string(link.url), "reason": .string(link.reason)]
                }),
        ]
        return document.prettySerialized
    }
}
