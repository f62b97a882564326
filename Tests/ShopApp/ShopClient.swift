import Foundation
public import MockAPIVerify

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small shop client written as an app team would write one, with nothing from mockapi's own
/// client: its own `Codable` models, its own `JSONDecoder` and date strategy, plain `URLRequest`s.
/// `ShopClient.Bug` plants one decoder mistake at a time, each one a rare-but-legal answer breaks.
public enum ShopClient {
    public enum Bug: String, CaseIterable, Sendable {
        /// `User.avatarUrl` is `String`: the schema says the key may be absent (and null).
        case requiredOptionalKey
        /// `Order.State` lists three of the four states the schema allows.
        case closedEnum
        /// `Order.id` is `Int32`: the schema's int64 id can have 19 digits.
        case int32Id
        /// The decoder's dates are a `DateFormatter` for `yyyy-MM-dd'T'HH:mm:ssXXXXX`: no fractional seconds.
        case dateStrategy
        /// `Product.cover` is the first image, required: the schema's `images` may be empty.
        case firstOfEmptyArray
        /// `Product.cover` is `images.first!`: an empty `images` traps (the decoding process dies).
        case forcedFirstImage
        /// The orders page's `note` is read as "absent or a string": the schema says it may be
        /// null, and only the page's second order (the one with a note) shows the key.
        case pageNoteNeverNull
        /// A payment is decoded as a card only: the schema's `oneOf` allows a PayPal payment too.
        case oneBranchOnly
    }

    // MARK: The decoder

    /// RFC 3339 with or without fractional seconds, as the API's `date-time` allows.
    static func decoder(_ bug: Bug?) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        if bug == .dateStrategy {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssXXXXX"
            decoder.dateDecodingStrategy = .formatted(formatter)
            return decoder
        }
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            let plain = ISO8601DateFormatter()
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = plain.date(from: text) ?? fractional.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date-time: \(text)")
            }
            return date
        }
        return decoder
    }

    // MARK: Models

    struct User: Decodable {
        var id: Int64
        var name: String
        var avatarUrl: String?
        var createdAt: Date
    }

    struct UserRequiringAvatar: Decodable {
        var id: Int64
        var name: String
        var avatarUrl: String
        var createdAt: Date
    }

    struct Order: Decodable {
        enum State: String, Decodable { case pending, paid, shipped, cancelled }
        var id: Int64
        var state: State
        var placedAt: Date
        var note: String?
        var items: [Item]
        var customer: Customer
    }

    struct Item: Decodable {
        var sku: String
        var quantity: Int
    }

    struct Customer: Decodable {
        var id: Int64
        var name: String
        var email: String?
    }

    struct OrderWithThreeStates: Decodable {
        enum State: String, Decodable { case pending, paid, shipped }
        var id: Int64
        var state: State
    }

    struct OrderWithInt32Id: Decodable {
        var id: Int32
        var state: String
    }

    struct OrderPage: Decodable {
        var orders: [Order]
        var nextCursor: String?
    }

    /// A page's order, its note read as "absent, or a string" (`contains` then `decode`).
    struct OrderSummary: Decodable {
        var id: Int64
        var note: String?

        enum CodingKeys: String, CodingKey { case id, note }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            note = container.contains(.note) ? try container.decode(String.self, forKey: .note) : nil
        }
    }

    struct OrderSummaryPage: Decodable {
        var orders: [OrderSummary]
        var nextCursor: String?
    }

    struct Product: Decodable {
        var id: Int64
        var name: String
        var price: Double
        var tags: [String]
        var images: [String]
    }

    /// The cover is the first image; written as a team would who never saw a product without one.
    struct ProductWithCover: Decodable {
        var id: Int64
        var cover: String

        enum CodingKeys: String, CodingKey { case id, images }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            let images = try container.decode([String].self, forKey: .images)
            guard let first = images.first else {
                throw DecodingError.dataCorruptedError(forKey: .images, in: container, debugDescription: "a product has at least one image")
            }
            cover = first
        }
    }

    /// The cover is `images.first!`: a product without images ends the process.
    struct ProductWithForcedCover: Decodable {
        var id: Int64
        var cover: String

        enum CodingKeys: String, CodingKey { case id, images }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64.self, forKey: .id)
            cover = try container.decode([String].self, forKey: .images).first!
        }
    }

    /// A card or a PayPal account, told apart by `kind`, as the schema's `oneOf` says.
    enum Payment: Decodable {
        case card(Card)
        case paypal(PayPal)

        struct Card: Decodable {
            var kind: String
            var last4: String
            var brand: String
        }

        struct PayPal: Decodable {
            var kind: String
            var email: String
            var payerId: String?
        }

        enum CodingKeys: String, CodingKey { case kind }

        init(from decoder: any Decoder) throws {
            let kind = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .kind)
            self = kind == "paypal" ? .paypal(try PayPal(from: decoder)) : .card(try Card(from: decoder))
        }
    }

    struct Shipment: Decodable {
        var id: Int64
        var carrier: String
        var events: [Event]

        struct Event: Decodable {
            var at: Date
            var status: String
        }
    }

    // MARK: Routes

    /// The route checks for `copies` copies of the six routes (`order_3`, ...), with `bug` planted.
    public static func checks(bug: Bug?, copies: Int = 1) -> [RouteCheck] {
        let decoder = decoder(bug)
        var checks: [RouteCheck] = []
        for copy in 0..<copies {
            let suffix = copies == 1 ? "" : "_\(copy)"
            func check(_ name: String, _ path: String, _ model: ResponseDecoder) -> RouteCheck {
                RouteCheck(
                    name: name + suffix, contract: name + suffix,
                    request: { baseURL in URLRequest(url: URL(string: baseURL.absoluteString + path.replacingOccurrences(of: "{copy}", with: suffix))!) },
                    responses: ["default": model])
            }
            let orderDecoder: ResponseDecoder =
                switch bug {
                case .closedEnum: .decoding(OrderWithThreeStates.self, with: decoder)
                case .int32Id: .decoding(OrderWithInt32Id.self, with: decoder)
                default: .decoding(Order.self, with: decoder)
                }
            let productDecoder: ResponseDecoder =
                switch bug {
                case .firstOfEmptyArray: .decoding(ProductWithCover.self, with: decoder)
                case .forcedFirstImage: .decoding(ProductWithForcedCover.self, with: decoder)
                default: .decoding(Product.self, with: decoder)
                }
            checks += [
                check("user", "/me{copy}", bug == .requiredOptionalKey ? .decoding(UserRequiringAvatar.self, with: decoder) : .decoding(User.self, with: decoder)),
                check("order", "/orders{copy}/1042", orderDecoder),
                check(
                    "orders", "/orders{copy}",
                    bug == .pageNoteNeverNull ? .decoding(OrderSummaryPage.self, with: decoder) : .decoding(OrderPage.self, with: decoder)),
                check("product", "/products{copy}/7", productDecoder),
                check("shipment", "/shipments{copy}/9", .decoding(Shipment.self, with: decoder)),
                check(
                    "payment", "/payments{copy}/3",
                    bug == .oneBranchOnly ? .decoding(Payment.Card.self, with: decoder) : .decoding(Payment.self, with: decoder)),
            ]
        }
        return checks
    }
}
