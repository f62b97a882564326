/// Text made safe for XML 1.0 attributes and content (the JUnit reports).
package enum XMLText {
    package static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20: continue // not allowed in XML 1.0
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
