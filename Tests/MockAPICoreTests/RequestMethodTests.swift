import MockAPICore
import Testing

struct RequestMethodTests {
    private func parse(_ text: String) -> RequestMethod? {
        var text = text
        return text.withUTF8 { RequestMethod(bytes: $0) }
    }

    @Test func everyMethodParsesFromItsBytes() {
        for method in RequestMethod.allCases { #expect(parse(method.rawValue) == method) }
    }

    @Test func nearMissesAreUnknown() {
        for text in ["", "get", "GETS", "PUX", "POSX", "PATCX", "HEAP", "DELETX", "OPTIONX", "CONNECT", "TRACE", "P"] {
            #expect(parse(text) == nil, "\(text)")
        }
    }
}
