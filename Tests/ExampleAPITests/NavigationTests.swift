import ExampleAPI
import Foundation
import Testing

@Suite struct NavigationTests {
    @Test(arguments: [
        ("https://www.kickstarter.com/projects/lantern-card-game", Navigation.project(slug: "lantern-card-game")),
        ("https://www.kickstarter.com/projects/lantern-card-game/posts/5502", .projectUpdate(projectSlug: "lantern-card-game", updateId: 5502)),
        ("https://www.kickstarter.com/profile/samokafor", .profile(username: "samokafor")),
        ("https://WWW.kickstarter.com/discover", .discover),
    ])
    func webLinksOpenTheirScreen(url: String, screen: Navigation) throws {
        #expect(Navigation.match(try #require(URL(string: url))) == screen)
    }

    @Test(arguments: [
        "https://www.kickstarter.com/projekts/lantern-card-game", // misspelled
        "https://www.kickstarter.com/projects/lantern-card-game/posts/x", // not an id
        "https://ksr-ugc.imgix.net/projects/lantern-card-game/full.jpg", // another host
        "http://www.kickstarter.com/projects/lantern-card-game", // not https
    ])
    func otherLinksOpenNothing(url: String) throws {
        #expect(Navigation.match(try #require(URL(string: url))) == nil)
    }
}
