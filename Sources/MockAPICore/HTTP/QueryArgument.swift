/// One argument of a request's query, decoded: `name=value`, or a `name` sent without `=` (nil value).
package struct QueryArgument: Sendable, Hashable {
    package var name: String
    package var value: String?

    package init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}
