import SystemLibc

/// The request methods a contract may name. Not called `HTTPMethod`: a team's test target that
/// imports this package next to Alamofire or Moya (each has an `HTTPMethod`) must not get an
/// ambiguous name.
package enum RequestMethod: String, Sendable, CaseIterable, Comparable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS

    /// The method named by raw request-line bytes (case-sensitive, as HTTP methods are), without
    /// making a String: the server parses one per request.
    package init?(bytes: UnsafeBufferPointer<UInt8>) {
        let candidate: RequestMethod
        switch (bytes.first, bytes.count) {
        case (UInt8(ascii: "G"), 3): candidate = .GET
        case (UInt8(ascii: "P"), 3): candidate = .PUT
        case (UInt8(ascii: "P"), 4): candidate = .POST
        case (UInt8(ascii: "H"), 4): candidate = .HEAD
        case (UInt8(ascii: "P"), 5): candidate = .PATCH
        case (UInt8(ascii: "D"), 6): candidate = .DELETE
        case (UInt8(ascii: "O"), 7): candidate = .OPTIONS
        default: return nil
        }
        // Compared in line: the names are 3 to 7 bytes, and a call to memcmp cost more than the loop.
        let name = candidate.name.utf8Start
        for index in 1..<bytes.count where bytes[index] != name[index] { return nil }
        self = candidate
    }

    /// The raw value as a static string, for comparing bytes without a String.
    private var name: StaticString {
        switch self {
        case .GET: "GET"
        case .HEAD: "HEAD"
        case .POST: "POST"
        case .PUT: "PUT"
        case .PATCH: "PATCH"
        case .DELETE: "DELETE"
        case .OPTIONS: "OPTIONS"
        }
    }

    package static func < (lhs: RequestMethod, rhs: RequestMethod) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
