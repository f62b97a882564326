import ClientKit
import ExampleAPI
import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// Every ``Service`` method against the bundled contracts and fixtures, over real HTTP.
@Suite struct ServiceTests {
    // MARK: Activity

    @Test func activitiesFirstPageDecodesNestedProjectsAndNullUsers() async throws {
        try await withMockServer { server in
            let page = try await Service.local(port: server.port).activities()

            #expect(page.activities.map(\.id) == [80001, 80002, 80003])
            #expect(page.activities.map(\.category) == [.backing, .update, .success])
            // {{baseURL}} in the fixture: an absolute link to this very server, whatever its port.
            #expect(page.nextPageURL == "\(server.baseURL.absoluteString)/v1/activities?cursor=2")

            let backing = page.activities[0]
            #expect(backing.createdAt == .epoch(1_719_360_000))
            #expect(backing.user?.name == "Elsa Lindqvist")
            let project = try #require(backing.project)
            #expect(project.id == 42)
            #expect(project.creator.name == "Dana Whitfield")
            #expect(project.category.parent?.name == "Games")
            #expect(project.location.displayableName == "Portland, OR")
            #expect(project.deadline == .epoch(1_719_792_000))

            let update = page.activities[1]
            #expect(update.user == nil)
            #expect(update.update?.title == "Print proofs are in!")
            #expect(update.update?.isPublic == true)
            #expect(page.activities[2].project?.state == .successful)
        }
    }

    @Test func activitiesCursorTwoServesTheLastPage() async throws {
        try await withMockServer { server in
            let page = try await Service.local(port: server.port).activities(cursor: 2)

            #expect(page.activities.map(\.category) == [.launch, .follow])
            #expect(page.activities[1].project == nil)
            #expect(page.activities[1].user?.id == 1004)
            #expect(page.nextPageURL == nil)
        }
    }

    @Test func activityPagesWalksBothPagesThroughTheRelativeNextURL() async throws {
        try await withMockServer { server in
            var pages: [ActivityEnvelope] = []
            for try await page in Service.local(port: server.port).activityPages() {
                pages.append(page)
            }

            #expect(pages.count == 2)
            #expect(pages.flatMap(\.activities).map(\.id) == [80001, 80002, 80003, 80004, 80005])
            let requests = server.journal().filter { $0.contract == "activities" }
            #expect(requests.map(\.query) == ["", "cursor=2"])
            #expect(requests.map(\.response) == ["default", "page2"])
            #expect(requests.allSatisfy { $0.status == 200 })
        }
    }

    // MARK: Projects

    @Test func projectByIdCarriesRewardsWithNulls() async throws {
        try await withMockServer { server in
            let project = try await Service.local(port: server.port).project(id: 42)

            #expect(project.name == "Lantern: A Cooperative Card Game")
            #expect(project.state == .live)
            #expect(project.isStarred == false)
            #expect(project.staffPick)
            #expect(project.percentFunded > 1.5)
            #expect(project.launchedAt == .epoch(1_717_200_000))
            #expect(project.photo.full.absoluteString.hasSuffix("/lantern-card-game/full.jpg"))
            let rewards = try #require(project.rewards)
            #expect(rewards.map(\.id) == [9001, 9002])
            #expect(rewards[0].remaining == 0)
            #expect(rewards[1].limit == nil)
            #expect(rewards[1].estimatedDeliveryOn == .epoch(1_730_419_200))
        }
    }

    @Test func projectBySlugHitsTheStringRoute() async throws {
        try await withMockServer { server in
            let project = try await Service.local(port: server.port).project(slug: "lantern-card-game")

            #expect(project.id == 42)
            #expect(server.journal().last?.contract == "project_by_slug")
        }
    }

    @Test func projectNotFoundCarriesTheErrorEnvelope() async throws {
        try await withMockServer { server in
            let client = Service.local(port: server.port).client

            let error = await #expect(throws: APIError.self) {
                try await client.request(Route.project(id: 42).preferring("not_found"), as: Project.self)
            }

            let failure = try #require(error?.serverFailure)
            #expect(failure.status == 404)
            #expect(failure.envelope?.ksrCode == "not_found")
            #expect(failure.envelope?.httpCode == 404)
            #expect(failure.envelope?.errorMessages == ["The resource you are looking for could not be found."])
        }
    }

    @Test func starProjectReturnsTheStarredProject() async throws {
        try await withMockServer { server in
            let project = try await Service.local(port: server.port).starProject(id: 42)

            #expect(project.id == 42)
            #expect(project.isStarred == true)
            #expect(server.journal().last?.method == "POST")
        }
    }

    @Test func discoverSendsCategoryArrayAndDecodesTheLastPage() async throws {
        try await withMockServer { server in
            let envelope = try await Service.local(port: server.port).discover(categoryIds: [34, 35], sort: .endDate, page: 1)

            #expect(envelope.projects.map(\.id) == [42, 131, 77])
            #expect(envelope.projects[2].location.state == nil)
            #expect(envelope.projects[2].currency == "SGD")
            #expect(envelope.nextPageURL == nil)
            let entry = try #require(server.journal().last)
            #expect(entry.contract == "discover")
            #expect(entry.status == 200)
            #expect(entry.query == "category_ids[]=34&category_ids[]=35&sort=end_date&page=1")
        }
    }

    // MARK: Backings

    @Test func backingDecodesBackerRewardAndLocation() async throws {
        try await withMockServer { server in
            let backing = try await Service.local(port: server.port).backing(projectId: 42, backerId: 2001)

            #expect(backing.id == 700123)
            #expect(backing.amount == 45)
            #expect(backing.shippingAmount == 10)
            #expect(backing.status == .pledged)
            #expect(backing.pledgedAt == .epoch(1_717_804_800))
            #expect(backing.backer?.name == "Sam Okafor")
            #expect(backing.reward?.title == "Lantern + Tides Expansion")
            #expect(backing.location?.id == backing.locationId)
        }
    }

    @Test func updateBackingSendsTheContractsJSONBody() async throws {
        try await withMockServer { server in
            let backing = try await Service.local(port: server.port)
                .updateBacking(projectId: 42, backerId: 2001, amount: 55.5, rewardId: 9002)

            #expect(backing.rewardId == 9002)
            let entry = try #require(server.journal().last)
            #expect(entry.method == "PUT")
            #expect(entry.contract == "update_backing")
            #expect(entry.status == 200)
        }
    }

    @Test func updateBackingWithoutTokenBreaksTheContract() async throws {
        try await withMockServer { server in
            let service = Service.local(port: server.port, token: nil)

            let error = await #expect(throws: APIError.self) {
                try await service.updateBacking(projectId: 42, backerId: 2001, amount: 45, rewardId: 9002)
            }

            #expect(error?.serverFailure?.status == 422)
        }
    }

    @Test func updateBackingInvalidIsAnUnprocessableEnvelope() async throws {
        try await withMockServer { server in
            let client = Service.local(port: server.port).client
            let route = Route.updateBacking(projectId: 42, backerId: 2001, amount: 1, rewardId: 9002, locationId: 2_475_687)

            let error = await #expect(throws: APIError.self) {
                try await client.request(route.preferring("invalid"), as: Backing.self)
            }

            #expect(error?.serverFailure?.status == 422)
            #expect(error?.serverFailure?.envelope?.ksrCode == "unprocessable_entity")
        }
    }

    // MARK: Categories

    @Test func categoriesKeepRootsAndSubcategoriesApart() async throws {
        try await withMockServer { server in
            let categories = try await Service.local(port: server.port).categories()

            #expect(categories.count == 9)
            #expect(categories.filter(\.isRoot).map(\.name) == ["Art", "Comics", "Design", "Games", "Technology"])
            let tabletop = try #require(categories.first { $0.id == 34 })
            #expect(tabletop.parentId == 12)
            #expect(tabletop.parent?.slug == "games")
            #expect(categories.first { $0.id == 1 }?.parent == nil)
        }
    }

    @Test func categoryByIdNamesItsParent() async throws {
        try await withMockServer { server in
            let category = try await Service.local(port: server.port).category(id: 34)

            #expect(category.name == "Tabletop Games")
            #expect(category.slug == "games/tabletop-games")
            #expect(category.parent?.id == 12)
        }
    }

    // MARK: Users

    @Test func currentUserWinsOverTheNumericUserRoute() async throws {
        try await withMockServer { server in
            let user = try await Service.local(port: server.port).currentUser()

            #expect(user.id == 2001)
            #expect(user.backedProjectsCount == 14)
            #expect(user.location?.name == "Portland")
            #expect(server.journal().last?.contract == "current_user")
        }
    }

    @Test func facebookLoginAndSignupShareAPathAndKeepTheirContracts() async throws {
        try await withMockServer { server in
            let service = Service.local(port: server.port)
            let login = try await service.facebookLogin(accessToken: "EAAB-token")
            let signup = try await service.facebookSignup(accessToken: "EAAB-token", sendNewsletters: true)

            #expect(login.accessToken == "fb-exchanged-3f2a9c")
            #expect(signup.user.id == 2001)
            #expect(server.journal().map(\.path) == ["/v1/facebook/access_token", "/v1/facebook/access_token"])
            #expect(server.journal().map(\.contract) == ["facebook_login", "facebook_signup"])
        }
    }

    @Test func currentUserUnauthorizedIsA401Envelope() async throws {
        try await withMockServer { server in
            let client = Service.local(port: server.port).client

            let error = await #expect(throws: APIError.self) {
                try await client.request(Route.currentUser.preferring("unauthorized"), as: User.self)
            }

            #expect(error?.serverFailure?.status == 401)
            #expect(error?.serverFailure?.envelope?.ksrCode == "access_token_invalid")
        }
    }

    @Test func userByIdHasNullStarredCount() async throws {
        try await withMockServer { server in
            let user = try await Service.local(port: server.port).user(id: 1001)

            #expect(user.name == "Dana Whitfield")
            #expect(user.createdProjectsCount == 3)
            #expect(user.starredProjectsCount == nil)
            #expect(user.avatar.medium.absoluteString.hasSuffix("/danawhitfield/medium.jpg"))
            #expect(user.urls.web.user.absoluteString == "https://www.kickstarter.com/profile/danawhitfield")
            #expect(server.journal().last?.contract == "user")
        }
    }

    // MARK: Update drafts

    @Test func updateDraftCarriesImagesAndVideo() async throws {
        try await withMockServer { server in
            let draft = try await Service.local(port: server.port).updateDraft(projectId: 42)

            #expect(draft.id == 5502)
            #expect(draft.isPublic)
            #expect(draft.images.map(\.id) == [31])
            #expect(draft.video?.status == .successful)
        }
    }

    @Test func updateDraftWithoutMediaHasEmptyImagesAndNullVideo() async throws {
        try await withMockServer { server in
            let client = Service.local(port: server.port).client

            let draft = try await client.request(Route.updateDraft(projectId: 42).preferring("no_media"), as: UpdateDraft.self)

            #expect(draft.images.isEmpty)
            #expect(draft.video == nil)
            #expect(!draft.isPublic)
        }
    }

    @Test func uploadDraftImageArrivesIntactAsAnImagePart() async throws {
        try await withMockServer { server in
            let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })
            let file = MediaFile(fileName: "cover photo.jpg", data: Data([0xFF, 0xD8, 0xFF, 0xE0]) + bytes)

            let image = try await Service.local(port: server.port).uploadDraftImage(file, toDraft: try await draft(server))

            #expect(image.id == 32)
            let entry = try #require(server.journal().last)
            #expect(entry.contract == "upload_draft_image")
            #expect(entry.path == "/v1/projects/42/updates/draft/images")
            let part = try #require(entry.parts.first)
            #expect(entry.parts.count == 1)
            #expect(part.name == "image")
            #expect(part.filename == "cover photo.jpg")
            #expect(part.contentType == "image/jpeg")
            #expect(part.bytes == file.data.count)
            #expect(try sha256Hex(file.data) == part.sha256)
        }
    }

    @Test func uploadDraftImageFromDiskDetectsTheContentType() async throws {
        try await withMockServer { server in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("example-api-\(UUID().uuidString).gif")
            let data = Data("GIF89a".utf8) + Data(repeating: 0, count: 32)
            try data.write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }

            _ = try await Service.local(port: server.port).uploadDraftImage(contentsOf: url, toDraft: try await draft(server))

            let part = try #require(server.journal().last?.parts.first)
            #expect(part.contentType == "image/gif")
            #expect(part.filename == url.lastPathComponent)
            #expect(try sha256Hex(data) == part.sha256)
        }
    }

    @Test func uploadDraftImageOfTheWrongTypeBreaksTheContract() async throws {
        try await withMockServer { server in
            let file = MediaFile(fileName: "notes.txt", data: Data("not an image".utf8))
            let service = Service.local(port: server.port)
            let draft = try await draft(server)

            let error = await #expect(throws: APIError.self) {
                try await service.uploadDraftImage(file, toDraft: draft)
            }

            #expect(error?.serverFailure?.status == 422)
        }
    }

    @Test func uploadDraftVideoStartsProcessing() async throws {
        try await withMockServer { server in
            let file = MediaFile(fileName: "teaser.mov", data: Data([0, 0, 0, 0x14]) + Data("ftypqt  ".utf8) + Data(count: 8))

            let video = try await Service.local(port: server.port).uploadDraftVideo(file, toDraft: try await draft(server))

            #expect(video.id == 13)
            #expect(video.status == .processing)
            let part = try #require(server.journal().last?.parts.first)
            #expect(part.name == "video")
            #expect(part.contentType == "video/quicktime")
            #expect(try sha256Hex(file.data) == part.sha256)
        }
    }

    @Test func deleteDraftImageAcceptsAnEmptyObject() async throws {
        try await withMockServer { server in
            let service = Service.local(port: server.port)
            let draft = try await service.updateDraft(projectId: 42)

            try await service.deleteDraftImage(draft.images[0], fromDraft: draft)

            let entry = try #require(server.journal().last)
            #expect(entry.method == "DELETE")
            #expect(entry.path == "/v1/projects/42/updates/draft/images/31")
            #expect(entry.contract == "delete_draft_image")
        }
    }

    @Test func updateDraftBodySavesTitleBodyAndVisibility() async throws {
        try await withMockServer { server in
            let service = Service.local(port: server.port)
            let draft = try await service.updateDraft(projectId: 42)

            let saved = try await service.updateDraftBody(draft, title: "Shipping update", body: "Soon.", isPublic: false)

            #expect(saved.id == draft.id)
            let entry = try #require(server.journal().last)
            #expect(entry.method == "PUT")
            #expect(entry.contract == "update_draft_body")
            #expect(entry.status == 200)
        }
    }

    @Test func publishDraftReturnsThePublishedUpdate() async throws {
        try await withMockServer { server in
            let service = Service.local(port: server.port)
            let draft = try await service.updateDraft(projectId: 42)

            let update = try await service.publishDraft(draft)

            #expect(update.id == draft.id)
            #expect(update.sequence == 4)
            #expect(update.publishedAt == .epoch(1_719_964_800))
            #expect(update.user?.id == 1001)
            #expect(update.urls.web.update.absoluteString.hasSuffix("/posts/5502"))
        }
    }

    /// The bundled draft, fetched the way an app gets it before uploading.
    private func draft(_ server: RunningMockServer) async throws -> UpdateDraft {
        try await Service.local(port: server.port).updateDraft(projectId: 42)
    }
}
