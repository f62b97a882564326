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
}
