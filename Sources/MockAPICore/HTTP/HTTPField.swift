/// One header of a request or an answer: its name as written and its value.
package struct HTTPField: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
