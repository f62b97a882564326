/// The release `mockapi --version` prints, with the commit it was built from.
enum MockAPIVersion {
    static let current = "0.9.0"
    /// `mockapi 0.9.0 (b8293a9)`; `(unknown)` when built outside a git checkout.
    static let line = "mockapi \(current) (\(BuildCommit.short))"
}
