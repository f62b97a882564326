/// A project category; subcategories name their parent (`Games` → `Tabletop Games`).
public struct Category: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    /// The URL slug, parent first for subcategories (`games/tabletop-games`).
    public var slug: String
    /// Sort order among siblings.
    public var position: Int
    /// The parent category's id; `nil` for a root category.
    public var parentId: Int?
    /// The parent category in brief; absent for a root category.
    public var parent: Parent?

    /// A parent category as nested in a subcategory.
    public struct Parent: Codable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var slug: String
    }

    /// Whether this is a top-level category.
    public var isRoot: Bool { parentId == nil }
}
