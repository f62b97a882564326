import Foundation
import Testing

@testable import ClientKit

@Suite struct QueryItemTests {
    @Test func arraysRepeatTheKeyWithBrackets() {
        let query = QueryItem.encode([QueryItem("category_ids", ["1", "22"])])
        #expect(query == "category_ids%5B%5D=1&category_ids%5B%5D=22")
        #expect(query.removingPercentEncoding == "category_ids[]=1&category_ids[]=22")
    }

    @Test func nilValuesAreDroppedAndOrderIsKept() {
        let query = QueryItem.encode([
            QueryItem("page", 2), QueryItem("cursor", nil), QueryItem("staff_picks", true), QueryItem("sort", "end_date"),
            QueryItem("radius", 2.5),
        ])
        #expect(query == "page=2&staff_picks=true&sort=end_date&radius=2.5")
    }

    @Test func reservedCharactersInValuesAreEscaped() {
        let query = QueryItem.encode([QueryItem("q", "a b+c&d=e/f?g#h%i~j.k_l-m")])
        #expect(query == "q=a%20b%2Bc%26d%3De%2Ff%3Fg%23h%25i~j.k_l-m")
    }

    @Test func nonASCIIIsEscapedAsUTF8() {
        #expect(QueryItem.encode([QueryItem("q", "café")]) == "q=caf%C3%A9")
    }

    @Test func emptyArrayAndNoItemsGiveNoQuery() {
        #expect(QueryItem.encode([QueryItem("ids", .array([]))]) == "")
        #expect(QueryItem.encode([]) == "")
    }
}
