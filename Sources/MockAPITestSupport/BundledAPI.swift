public import Foundation

/// Where the repository's bundled example API lives.
public enum BundledAPI {
    /// The repository root, found from this source file (Sources/MockAPITestSupport/…).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let contracts = root.appendingPathComponent("contracts")
    public static let fixtures = root.appendingPathComponent("fixtures")
}
