/// The request methods a contract may name.
public enum HTTPMethod: String, Sendable, CaseIterable, Comparable {
    case GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS

    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
