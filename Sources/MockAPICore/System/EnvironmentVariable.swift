import SystemLibc

/// One environment variable, read where it is needed. `ProcessInfo.processInfo.environment`
/// copies every variable into a new dictionary at each use (about 380,000 instructions on this
/// machine's environment); three such reads were 1.1 M of the 21 M a `serve` start executes.
package enum EnvironmentVariable {
    /// The variable's value, when set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The variable's value, when set and not empty: how a variable stands in for a flag.
    package static func nonEmpty(_ name: String) -> String? {
        value(name).flatMap { $0.isEmpty ? nil : $0 }
    }
}
