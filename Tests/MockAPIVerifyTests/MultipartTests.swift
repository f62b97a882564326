import ClientKit
import ExampleAPIChecks
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

/// An upload whose parts do not fit the contract's `multipart` list fails the `contract` check
/// with one violation per part.
@Suite struct MultipartTests {
    @Test func renamedPartIsMissingAndUnexpected() async throws {
        let report = try await verify(
            checks: checks(replacing: "upload_draft_image") { check in
                guard case .upload(var upload) = check.body else {
                    Issue.record("upload_draft_image sends no upload")
                    return
                }
                upload.partName = "photo"
                check.body = .upload(upload)
            })

        let failure = try onlyFailure(of: "upload_draft_image", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.contains("          part photo: cover.jpg, image/jpeg, 22 bytes, sha256 "))
        #expect(
            failure.lines.suffix(3) == [
                "problem:  the request breaks the contract (2 violations):",
                "  part.image: required part is missing",
                "  part.photo: unexpected part (the contract names: image)",
            ])
    }

    @Test func disallowedContentTypeIsListed() async throws {
        let set = try bundledCopy()
        try set.replace(
            #""contentTypes": ["image/jpeg", "image/png", "image/gif"]"#, with: #""contentTypes": ["image/png"]"#,
            in: "contracts/drafts/upload_draft_image.json")

        let report = try await verify(set)

        let failure = try onlyFailure(of: "upload_draft_image", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.contains("contract: upload_draft_image, POST /v1/projects/{projectId:int}/updates/draft/images"))
        #expect(
            failure.lines.suffix(2) == [
                "problem:  the request breaks the contract (1 violation):",
                "  part.image: content type image/jpeg is not allowed (allowed: image/png)",
            ])
    }
}
