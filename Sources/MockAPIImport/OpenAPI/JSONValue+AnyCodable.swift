import Foundation
import MockAPICore
import OpenAPIKit

extension JSONValue {
    /// An example value from an OpenAPI document as JSON. `AnyCodable` holds dictionaries,
    /// whose key order is lost, so object keys are sorted: the output is the same on every run.
    init(_ value: AnyCodable) {
        self.init(any: value.value)
    }

    private init(any value: Any) {
        switch value {
        case let nested as AnyCodable: self.init(any: nested.value)
        case is NSNull: self = .null
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .int(int)
        case let uint as UInt: self = uint <= UInt(Int.max) ? .int(Int(uint)) : .double(Double(uint))
        case let int as Int64: self = .int(Int(int))
        case let int as Int32: self = .int(Int(int))
        case let double as Double: self = .double(double)
        case let float as Float: self = .double(Double(float))
        case let string as String: self = .string(string)
        case let url as URL: self = .string(url.absoluteString)
        case let date as Date: self = .string(ISO8601DateFormatter().string(from: date))
        case let array as [Any]: self = .array(array.map { JSONValue(any: $0) })
        case let object as [String: Any]:
            self = .object(JSONObject(object.keys.sorted().map { ($0, JSONValue(any: object[$0]!)) }))
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                self = mirror.children.first.map { JSONValue(any: $0.value) } ?? .null
            } else {
                self = .string("\(value)")
            }
        }
    }
}
