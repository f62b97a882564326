import Foundation
import MockAPITestSupport

/// The shop API's contracts, each response with a `schema` beside its fixture, as an importer or
/// a team would write them: optional and nullable keys, enums, int64 ids, date-times, arrays
/// that may be empty, open objects.
enum ShopContracts {
    static let order = #"""
        {"properties": {
          "id": {"type": "int", "format": "int64"},
          "state": {"type": "string", "enum": ["pending", "paid", "shipped", "cancelled"]},
          "placed_at": {"type": "string", "format": "date-time"},
          "note": {"type": "string", "nullable": true, "required": false},
          "items": {"items": {"properties": {"sku": {"type": "string"}, "quantity": {"type": "int"}}}},
          "customer": {"properties": {"id": {"type": "int", "format": "int64"}, "name": {"type": "string"},
                                      "email": {"type": "string", "nullable": true}}, "otherKeys": true}}}
        """#

    static let orderFixture = #"""
        {"id": 1042, "state": "paid", "placed_at": "2024-05-01T12:00:00Z", "note": "gift wrap",
         "items": [{"sku": "MUG-1", "quantity": 2}], "customer": {"id": 7, "name": "Dana", "email": "dana@example.com"}}
        """#

    /// A page's first order: shipped, no note (the second, `orderFixture`, has one).
    static let firstPageOrder = #"""
        {"id": 1041, "state": "shipped", "placed_at": "2024-04-30T10:00:00Z",
         "items": [{"sku": "PEN-2", "quantity": 1}], "customer": {"id": 7, "name": "Dana", "email": null}}
        """#

    /// name → (path, schema, fixture)
    static let routes: [(name: String, path: String, schema: String, fixture: String)] = [
        (
            "user", "/me{copy}",
            #"""
            {"properties": {"id": {"type": "int", "format": "int64"}, "name": {"type": "string"},
              "avatar_url": {"type": "string", "nullable": true, "required": false},
              "created_at": {"type": "string", "format": "date-time"}}}
            """#,
            #"{"id": 7, "name": "Dana", "avatar_url": "https://cdn.example.com/a/7.png", "created_at": "2023-11-02T08:30:00Z"}"#
        ),
        ("order", "/orders{copy}/{id:int}", order, orderFixture),
        (
            "orders", "/orders{copy}",
            #"{"properties": {"orders": {"items": \#(order)}, "next_cursor": {"type": "string", "nullable": true}}}"#,
            #"{"orders": [\#(firstPageOrder), \#(orderFixture)], "next_cursor": "c2"}"#
        ),
        (
            "product", "/products{copy}/{id:int}",
            #"""
            {"properties": {"id": {"type": "int", "format": "int64"}, "name": {"type": "string"}, "price": {"type": "number"},
              "tags": {"items": {"type": "string"}}, "images": {"items": {"type": "string"}}}, "otherKeys": true}
            """#,
            #"{"id": 7, "name": "Mug", "price": 12.5, "tags": ["kitchen"], "images": ["https://cdn.example.com/p/7.png"]}"#
        ),
        (
            "shipment", "/shipments{copy}/{id:int}",
            #"""
            {"properties": {"id": {"type": "int", "format": "int64"}, "carrier": {"type": "string"},
              "events": {"items": {"properties": {"at": {"type": "string", "format": "date-time"}, "status": {"type": "string"}}}}}}
            """#,
            #"{"id": 9, "carrier": "DHL", "events": [{"at": "2024-05-02T09:15:00+02:00", "status": "picked up"}]}"#
        ),
        (
            "payment", "/payments{copy}/{id:int}",
            #"""
            {"oneOf": [
              {"properties": {"kind": {"type": "string", "enum": ["card"]}, "last4": {"type": "string"}, "brand": {"type": "string"}}},
              {"properties": {"kind": {"type": "string", "enum": ["paypal"]}, "email": {"type": "string"},
                              "payer_id": {"type": "string", "required": false}}}]}
            """#,
            #"{"kind": "card", "last4": "4242", "brand": "visa"}"#
        ),
    ]

    /// `copies` copies of the six contracts (`order_3` at `/orders_3/{id}`), one fixture each.
    static func set(copies: Int = 1) throws -> TemporaryContractSet {
        var contracts: [String: String] = [:]
        var fixtures: [String: String] = [:]
        for copy in 0..<copies {
            let suffix = copies == 1 ? "" : "_\(copy)"
            for route in routes {
                let name = route.name + suffix
                let path = route.path.replacingOccurrences(of: "{copy}", with: suffix)
                contracts["\(name).json"] =
                    #"{"name": "\#(name)", "request": {"method": "GET", "path": "\#(path)"}, "responses": {"default": {"status": 200, "fixture": "\#(name).json", "schema": \#(route.schema)}}}"#
                fixtures["\(name).json"] = route.fixture
            }
        }
        return try TemporaryContractSet(contracts: contracts, fixtures: fixtures)
    }
}
