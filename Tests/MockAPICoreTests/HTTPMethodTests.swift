import MockAPICore
import Testing

struct HTTPMethodTests {
    private func parse(_ text: String) -> HTTPMethod? {
        var text = text
        return text.withUTF8 { HTTPMethod(bytes: $0) }
    }

    @Test func everyMethodParsesFromItsBytes() {
        for method in HTTPMethod.allCases { #expect(parse(method.rawValue) == method) }
    }

    @Test func nearMissesAreUnknown() {
        for text in ["", "get", "GETS", "PUX", "POSX", "PATCX", "HEAP", "DELETX", "OPTIONX", "CONNECT", "TRACE", "P"] {
            #expect(parse(text) == nil, "\(text)")
        }
    }
}
