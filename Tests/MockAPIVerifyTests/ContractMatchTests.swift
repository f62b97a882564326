import ClientKit
import ExampleAPIChecks
import Testing

/// A client route whose method or path differs from its contract fails the `contract` check,
/// naming the contract it meant and why the request did not reach it.
@Suite struct ContractMatchTests {
    @Test func wrongPathSegmentNamesNearestContractAndSegment() async throws {
        let report = try await runWithFailingBacking()

        let failure = try onlyFailure(of: "backing", in: report)
        #expect(failure.check == .contract)
        #expect(failure.lines.first == "sent:     GET \(try #require(report.route("backing")?.request?.url))")
        #expect(failure.message.contains("contract: backing, GET /v1/projects/{projectId:int}/backers/{backerId:int} ("))
        #expect(failure.message.contains("problem:  no contract matches GET /v1/projects/42/backer/2001"))
        let nearest = try #require(failure.line(after: "nearest:"))
        #expect(nearest.hasPrefix("  backing ("))
        #expect(nearest.contains("contracts/backings/backing.json): "))
        #expect(nearest.hasSuffix(#"segment 4 is "backer", /v1/projects/{projectId:int}/backers/{backerId:int} expects "backers""#))
    }

    @Test func wrongMethodSaysTheMethodIsNotAllowed() async throws {
        let report = try await verify(checks: checks(replacing: "backing") { $0.method = .delete })

        let failure = try onlyFailure(of: "backing", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.contains("sent:     DELETE http://"))
        #expect(failure.message.contains("contract: backing, GET /v1/projects/{projectId:int}/backers/{backerId:int}"))
        #expect(failure.message.contains("problem:  DELETE is not allowed on /v1/projects/42/backers/2001; the contracts allow GET, HEAD, PUT"))
        #expect(failure.message.contains("the contract expects GET, the client sent DELETE"))
    }

    @Test func methodOfAnotherContractNamesTheContractReachedInstead() async throws {
        let report = try await verify(checks: checks(replacing: "backing") { $0.method = .put })

        let failure = try onlyFailure(of: "backing", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.contains("contract: backing, GET /v1/projects/{projectId:int}/backers/{backerId:int}"))
        #expect(failure.message.contains(#"problem:  the request matched contract "update_backing" ("#))
        #expect(failure.message.contains("contracts/backings/update_backing.json) instead"))
        #expect(failure.message.contains("the contract expects GET, the client sent PUT"))
    }

    @Test func responseNameTheContractLacksIsAContractFailure() async throws {
        let report = try await verify(checks: checks(changing: "backing") { $0.responses["gone"] = .model(ErrorEnvelope.self) })

        let failure = try onlyFailure(of: "backing", in: report)
        #expect(failure.check == .contract)
        #expect(failure.message.hasPrefix(#"the client handles a response named "gone", but contract "backing" ("#))
        #expect(failure.message.hasSuffix("contracts/backings/backing.json) has none; it has: default, not_found"))
    }
}
