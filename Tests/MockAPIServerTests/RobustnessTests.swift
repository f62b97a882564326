import Foundation
import MockAPICore
import MockAPIServer
import MockAPITestSupport
import Testing

struct RobustnessTests {
    @Test func malformedRequestLineGetsAnErrorOrCloseAndTheServerGoesOn() async throws {
        try await withMockServer { server in
            for garbage in ["NOT HTTP AT ALL\r\n\r\n", "GET /x HTTP/9.9\r\n\r\n", "GET /x HTTP/1.1\r\nBad Header Line\r\n\r\n", "\u{01}\u{02}\u{03}\r\n\r\n"] {
                let client = try RawHTTP(port: server.port)
                try client.send(garbage)
                client.shutdownWrite()
                if let response = try client.readResponse() {
                    #expect((400..<600).contains(response.status), "\(garbage.debugDescription) got \(response.status)")
                }
            }
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    @Test func aClientThatStopsSendingIsAnsweredAndClosedAtOnce() async throws {
        try await withMockServer { server in
            let partial = try RawHTTP(port: server.port)
            try partial.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n")
            partial.shutdownWrite()
            #expect(partial.closedByServer(within: 2), "an unfinished request held open after the client's FIN")

            let whole = try RawHTTP(port: server.port)
            try whole.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n")
            whole.shutdownWrite()
            #expect(try whole.readResponse()?.status == 200)
            #expect(whole.closedByServer(within: 2), "a keep-alive connection held open after the client's FIN")

            let shortBody = try RawHTTP(port: server.port)
            try shortBody.send("POST /v1/projects/1/star HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
            shortBody.shutdownWrite()
            #expect(shortBody.closedByServer(within: 2), "a body that can never be finished held open after the client's FIN")
        }
    }

    @Test func declaredOversizedBodyGets413BeforeItIsSent() async throws {
        try await withMockServer(configure: { $0.maxBodyBytes = 1024 }) { server in
            let client = try RawHTTP(port: server.port)
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n\r\n")
            let response = try #require(try client.readResponse())
            #expect(response.status == 413)
            #expect(response.text.contains("1024 bytes"))
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    @Test func chunkedBodyOverTheLimitIsRefused() async throws {
        try await withMockServer(configure: { $0.maxBodyBytes = 1024 }) { server in
            let client = try RawHTTP(port: server.port)
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "a", count: 800)
            try client.send("320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
            let response = try #require(try client.readResponse())
            #expect(response.status == 413)
            #expect(response.text.contains("1024 bytes (mockapi serve --max-body-bytes)"))
            // Answered once the body ended, so the connection is still good for the next request.
            try client.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse()?.status == 200)
        }
    }

    @Test func chunkedBodyThatKeepsComingGets413AndAClose() async throws {
        try await withMockServer(configure: {
            $0.maxBodyBytes = 1024; $0.cors = true
        }) { server in
            let client = try RawHTTP(port: server.port)
            try client.send("POST /v1/projects/1/star HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            // Past twice the limit and never the last chunk: the server stops reading and answers.
            let chunk = "400\r\n" + String(repeating: "a", count: 1024) + "\r\n"
            for _ in 0..<4 { try? client.send(chunk) }
            let response = try #require(try client.readResponse())
            #expect(response.status == 413)
            #expect(response.headers["connection"] == "close")
            // Carried out like every decision: its headers (CORS) on it, and journaled.
            #expect(response.headers["access-control-allow-origin"] == "*")
            let journaled = try #require(server.journal().last)
            #expect(journaled.status == 413 && journaled.problem?.contains("--max-body-bytes") == true)
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories").status == 200)
        }
    }

    @Test func contentLengthBeyondInt64Gets413AtOnce() async throws {
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9223372036854775808\r\n\r\n{}")
            #expect(try client.readResponse()?.status == 413)
        }
    }

    @Test func jsonBodyOverItsOwnLimitGets413NamingIt() async throws {
        try await withMockServer(configure: { $0.maxJSONBytes = 100 }) { server in
            let body = Data(#"{"amount": 1, "reward_id": 2, "note": "\#(String(repeating: "x", count: 200))"}"#.utf8)
            let declared = try RawHTTP.request(
                server.port, "PUT", "/v1/projects/1/backers/2",
                headers: ["Content-Type": "application/json", "Authorization": "token a"], body: body)
            #expect(declared.status == 413)
            #expect(declared.text.contains("100 bytes (mockapi serve --max-json-bytes)"))

            let client = try RawHTTP(port: server.port)
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nAuthorization: token a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            try client.send(String(body.count, radix: 16) + "\r\n" + String(decoding: body, as: UTF8.self) + "\r\n0\r\n\r\n")
            let chunked = try #require(try client.readResponse())
            #expect(chunked.status == 413)
            #expect(chunked.text.contains("--max-json-bytes"))
            // Other bodies keep the general limit.
            var upload = MultipartBody()
            upload.parts = [("image", "a.jpg", "image/jpeg", jpegBytes(5000))]
            #expect(
                try RawHTTP.request(
                    server.port, "POST", "/v1/projects/1/updates/draft/images",
                    headers: ["Content-Type": upload.contentType], body: upload.data
                ).status == 200)
        }
    }

    @Test func twoDifferentContentLengthsGet400() async throws {
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\n{}")
            let response = try #require(try client.readResponse())
            #expect(response.status == 400)
            #expect(response.text.contains("Content-Length is given more than once with different values"))
        }
    }

    @Test func unknownTransferEncodingGets501AtOnce() async throws {
        try await withMockServer { server in
            let client = try RawHTTP(port: server.port)
            client.receiveTimeout(seconds: 3) // well under the 30 s idle timeout the request used to wait for
            try client.send("PUT /v1/projects/1/backers/2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}")
            let response = try #require(try client.readResponse())
            #expect(response.status == 501)
            #expect(response.text.contains(#"Transfer-Encoding \"gzip\" is not supported"#))
        }
    }

    @Test func http11WithoutHostGets400() async throws {
        try await withMockServer { server in
            for version in ["1.1", "1.2"] {
                let response = try #require(try RawHTTP.exchange(server.port, "GET /v1/categories HTTP/\(version)\r\n\r\n"))
                #expect(response.status == 400)
                #expect(ProblemDocument(body: response.body)?.detail == "an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2)")
            }
            #expect(try RawHTTP.exchange(server.port, "GET /v1/categories HTTP/1.0\r\n\r\n")?.status == 200)
            // Host given but empty is a Host (RFC 9112 §3.2 allows it): the request goes on.
            #expect(try RawHTTP.exchange(server.port, "GET /v1/categories HTTP/1.1\r\nHost:\r\n\r\n")?.status == 200)
        }
    }

    /// `GET` is known by its bytes and the NUL after them read as one word: a method that
    /// shares its first bytes, or differs only in case, is not taken for it (methods are
    /// case-sensitive, RFC 9110 §9.1), and the path a GET answers with 200 answers them otherwise.
    @Test func onlyGETItselfIsTakenForGET() async throws {
        try await withMockServer { server in
            #expect(try RawHTTP.exchange(server.port, "GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
            for method in ["GETS", "GE", "get", "GeT", "G"] {
                let status = try RawHTTP.exchange(server.port, "\(method) /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n")?.status
                #expect(status != nil && status != 200, "\(method): \(String(describing: status))")
            }
        }
    }

    /// RFC 9112 §3.2: one space between method, target and version. A space inside the target
    /// (in its path or its query, or one more before the version) is a malformed request line.
    @Test func aSpaceInTheRequestTargetGets400() async throws {
        try await withMockServer { server in
            for target in ["/v1/cate gories", "/v1/categories?a=1 2", "/v1/categories ", "/v1/categories? "] {
                let response = try #require(try RawHTTP.exchange(server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n"), "\(target)")
                #expect(response.status == 400, "\(target)")
                #expect(ProblemDocument(body: response.body)?.detail == "the request target has a space in it (RFC 9112 §3.2)", "\(target)")
            }
            // Refused with a query of 600 arguments too, which MHD must not index (they would
            // fill the connection's pool, and MHD 0.9.75 then neither answers nor closes).
            let arguments = (0..<600).map { "a\($0)=\($0)" }.joined(separator: "&")
            for target in ["/v1/cate gories?\(arguments)", "/v1/categories?\(arguments) x"] {
                let response = try RawHTTP.exchange(server.port, "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n", timeoutSeconds: 5)
                #expect(response?.status == 400, "\(target.prefix(20))…")
            }
            // Spaces MHD skips around the target (before it, after the version) leave it whole.
            #expect(try RawHTTP.exchange(server.port, "GET  /v1/categories?a=%20 HTTP/1.1\r\nHost: x\r\n\r\n")?.status != 400)
        }
    }

    @Test func fiftyConcurrentRequestsAreAllJournaled() async throws {
        try await withMockServer { server in
            let port = server.port
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<50 {
                    group.addTask { try RawHTTP.request(port, "GET", "/v1/users/\(i)").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 50))
            let journal = server.journal()
            #expect(journal.count == 50)
            #expect(Set(journal.map(\.path)) == Set((0..<50).map { "/v1/users/\($0)" }))
            #expect(Set(journal.map(\.id)).count == 50)
        }
    }

    @Test func manyAndLongHeadersAreJournaledWhole() async throws {
        // Past the 512 bytes first offered for a request's headers, so the copy is redone larger.
        let headers = Dictionary(uniqueKeysWithValues: (0..<20).map { ("X-Trace-\($0)", String(repeating: "v\($0 % 10)", count: 40 + $0)) })
        try await withMockServer { server in
            #expect(try RawHTTP.request(server.port, "GET", "/v1/categories", headers: headers).status == 200)
            let journaled = try #require(server.journal().last).headers
            for (name, value) in headers { #expect(journaled.value(for: name.lowercased()) == value) }
            #expect(journaled.value(for: "Host") != nil)
            #expect(journaled.pairs.count == headers.count + 2) // and Host, Connection
        }
    }

    @Test func journalIsBoundedToItsCapacity() async throws {
        try await withMockServer(configure: { $0.journalCapacity = 5 }) { server in
            for i in 0..<8 { _ = try RawHTTP.request(server.port, "GET", "/v1/users/\(i)") }
            #expect(server.journal().map(\.path) == (3..<8).map { "/v1/users/\($0)" })
        }
    }

    @Test func stopWaitsForARequestInFlight() async throws {
        let set = try TemporaryContractSet(contracts: [
            "echo.json": #"""
            {"name": "echo", "request": {"method": "POST", "path": "/echo"}, "responses": {"default": {"status": 201}}}
            """#
        ])
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.minBodyBytesPerSecond = 0 // the body pauses for as long as a loaded machine takes
        let server = try MockServer(set: try ContractSet.load(contracts: set.contracts, fixtures: set.fixtures), configuration: configuration)
        let (inFlight, status) = try await onOwnThread {
            let client = try RawHTTP(port: Int(server.port))
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
            // Wait for the server to have the request, not for a guessed time: a loaded machine is slow.
            for _ in 0..<1000 where server.requestsInFlight == 0 { usleep(10_000) }
            let inFlight = server.requestsInFlight
            let stopped = DispatchSemaphore(value: 0)
            Thread {
                server.stop(grace: 30); stopped.signal()
            }.start()
            usleep(100_000) // lets the stop begin; the outcome does not depend on it
            try client.send("cd")
            let response = try client.readResponse()
            stopped.wait()
            return (inFlight, response?.status)
        }
        #expect(inFlight == 1)
        #expect(status == 201)
    }
}
