/// One query parameter; a `nil` value means "leave it out", so optional filters need no `if`.
///
/// ```swift
/// [QueryItem("category_ids", .array(["1", "2"])), QueryItem("page", cursor.map(QueryValue.string))]
/// ```
public struct QueryItem: Sendable, Equatable {
    /// The parameter name, without `[]` for arrays.
    public var name: String
    /// The value; `nil` drops the item when encoding.
    public var value: QueryValue?

    /// Creates a query item.
    public init(_ name: String, _ value: QueryValue?) {
        self.name = name
        self.value = value
    }
}
