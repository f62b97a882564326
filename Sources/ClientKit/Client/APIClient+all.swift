import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Sends every route concurrently and returns the decoded bodies in the routes' order.
    ///
    /// The first failure cancels the requests still running and is rethrown; cancelling the
    /// calling task cancels them all.
    ///
    /// ```swift
    /// let projects = try await client.all([Route.project(id: 1), .project(id: 2)], as: Project.self)
    /// ```
    public func all<M: Decodable & Sendable>(
        _ routes: [some EndpointConvertible],
        as type: M.Type = M.self
    ) async throws -> [M] {
        try await withThrowingTaskGroup(of: (Int, M).self) { group in
            for (index, route) in routes.enumerated() {
                group.addTask { (index, try await self.request(route, as: M.self)) }
            }
            var results = [M?](repeating: nil, count: routes.count)
            for try await (index, value) in group {
                results[index] = value
            }
            return results.compactMap { $0 }
        }
    }
}
