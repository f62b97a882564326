import Foundation
import MockAPICore
import Testing

/// The per-thread cache of the last session served (`SessionRegistry.recentSession`): it answers
/// only for the id it holds, counts the request as a lookup does, and never serves a session that
/// has ended.
struct SessionRegistryRecentTests {
    @Test func aThreadsLastSessionIsServedUntilItEnds() throws {
        let registry = SessionRegistry()
        let session = try registry.create().get()
        var id = session.id
        // Not remembered yet: the caller looks it up in the registry.
        #expect(id.withUTF8 { registry.recentSession(id: $0, threadSlot: 3) } == nil)
        registry.remember(session, threadSlot: 3)
        #expect(id.withUTF8 { registry.recentSession(id: $0, threadSlot: 3) } === session)
        #expect(session.requests == 1)
        // Another thread slot holds nothing; another id is not this one.
        #expect(id.withUTF8 { registry.recentSession(id: $0, threadSlot: 4) } == nil)
        var otherID = try registry.create().get().id
        #expect(otherID.withUTF8 { registry.recentSession(id: $0, threadSlot: 3) } == nil)
        var malformed = "0123"
        #expect(malformed.withUTF8 { registry.recentSession(id: $0, threadSlot: 3) } == nil)
        // Ended: never served again from the cache.
        #expect(registry.remove(session.key))
        #expect(id.withUTF8 { registry.recentSession(id: $0, threadSlot: 3) } == nil)
        #expect(session.requests == 1)
    }

    /// The request path's form: `/s/ID…` whose id is the thread's last session is served from the
    /// cache with the id read in place; an admin path, a longer id and an ended session still go
    /// the long way, which refuses them.
    @Test func aSessionPathIsServedFromTheCacheOnlyWhileTheLongWayWould() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let set = try ContractSet.load(contracts: repository.appending(path: "contracts"), fixtures: repository.appending(path: "fixtures"))
        let registry = SessionRegistry()
        let responder = Responder(set: set, sessions: registry)
        let session = try registry.create().get()
        registry.remember(session, threadSlot: 5)
        func scope(_ path: String, slot: Int = 5) -> (session: SessionState?, refusal: Int?, offset: Int) {
            var path = path
            let (scope, offset) = path.withUTF8 { responder.sessionScope(path: $0, headers: [], namesSession: false, threadSlot: slot) }
            switch scope {
            case .session(let found): return (found, nil, offset)
            case .refused(let response): return (nil, response.status, offset)
            }
        }
        let inside = scope("/s/\(session.id)/v1/activities")
        #expect(inside.session === session && inside.offset == 19)
        #expect(scope("/s/\(session.id)").session === session)
        #expect(session.requests == 2)
        #expect(scope("/s/\(session.id)/__mockapi/requests").refusal == 404)
        #expect(scope("/s/\(session.id)0/v1/activities").refusal == 400)
        #expect(scope("/s/\(session.id)/v1/activities", slot: 6).session === session, "another thread finds it the long way")
        #expect(registry.remove(session.key))
        #expect(scope("/s/\(session.id)/v1/activities").refusal == 404)
        #expect(scope("/s/\(session.id)/v1/activities", slot: 6).refusal == 404)
    }
}
