import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Every page of a list: requests `first`, then each page's ``PaginatedResponse/nextPageURL``
    /// (with `first`'s headers) until a page has none.
    ///
    /// Pages are fetched on demand, one per iteration, in the consuming task: leaving the loop
    /// stops the walk, and cancelling the task cancels the request in flight. An error ends the
    /// stream after the pages already delivered.
    ///
    /// ```swift
    /// for try await page in client.pages(Route.activities, as: ActivityPage.self) {
    ///     activities += page.activities
    /// }
    /// ```
    public func pages<Page: PaginatedResponse>(
        _ first: some EndpointConvertible,
        as type: Page.Type = Page.self
    ) -> AsyncThrowingStream<Page, any Error> {
        let cursor = PageCursor<Page>(client: self, first: first.endpoint)
        return AsyncThrowingStream { try await cursor.next() }
    }
}
