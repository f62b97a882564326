/// The two string formats whose shape is checked: RFC 3339's `date-time` and `date` (as OpenAPI
/// and JSON Schema mean them). Other formats are kept, not checked.
package enum DateFormat {
    /// Why `text` is not a `format` string, or nil when it is one (or the format is not checked).
    package static func problem(_ text: String, format: String) -> String? {
        switch format {
        case "date-time": isDateTime(Array(text.utf8)) ? nil : "\(JSONValue.string(text).serialized) is not an RFC 3339 date-time (2024-05-01T12:00:00Z)"
        case "date": isDate(Array(text.utf8)[...]) && text.utf8.count == 10 ? nil : "\(JSONValue.string(text).serialized) is not an RFC 3339 date (2024-05-01)"
        default: nil
        }
    }

    /// `2024-05-01T12:00:00Z`, `2024-05-01T12:00:00.123+02:00`.
    static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, isDate(bytes[0..<10]), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        guard digits(bytes[11..<13], max: 23), bytes[13] == UInt8(ascii: ":"), digits(bytes[14..<16], max: 59), bytes[16] == UInt8(ascii: ":"),
            digits(bytes[17..<19], max: 60)
        else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            if index == start { return false }
        }
        let zone = bytes[index...]
        if zone.count == 1 { return zone.first == UInt8(ascii: "Z") || zone.first == UInt8(ascii: "z") }
        guard zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-") else { return false }
        let start = zone.startIndex
        return digits(bytes[(start + 1)..<(start + 3)], max: 23) && bytes[start + 3] == UInt8(ascii: ":") && digits(bytes[(start + 4)..<(start + 6)], max: 59)
    }

    /// `2024-05-01`: the first ten bytes.
    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 10 else { return false }
        let start = bytes.startIndex
        return digits(bytes[start..<(start + 4)], max: 9999) && bytes[start + 4] == UInt8(ascii: "-") && digits(bytes[(start + 5)..<(start + 7)], max: 12)
            && bytes[start + 7] == UInt8(ascii: "-") && digits(bytes[(start + 8)..<(start + 10)], max: 31)
            && number(bytes[(start + 5)..<(start + 7)]) >= 1 && number(bytes[(start + 8)..<(start + 10)]) >= 1
    }

    private static func digits(_ bytes: ArraySlice<UInt8>, max: Int) -> Bool {
        bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && number(bytes) <= max
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 * 10 + Int($1) - 48 }
    }
}
