/// The release `mockapi --version` prints.
enum MockAPIVersion {
    static let current = "0.9.0"
}
