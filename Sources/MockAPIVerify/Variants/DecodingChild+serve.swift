import Foundation
import MockAPICore

extension DecodingChild {
    /// True in a gate started as a decoding child (``DecodingChild``): it serves, it does not run.
    package static var isThisProcess: Bool { EnvironmentVariable.value(environmentKey) == "1" }

    /// The child's side: says it is ready, then decodes each request with the decoder `checks`
    /// declare for its route and response, and answers; exits at the end of its stdin. Its
    /// stdout is the answers' channel, so what a decoder prints goes to stderr.
    package static func serve(_ checks: [RouteCheck]) -> Never {
        let answers = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        var channel = DecodingChannel(input: STDIN_FILENO, output: answers)
        let routes = Dictionary(checks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        guard channel.send(["ready"]) else { exit(0) }
        while let request = channel.receive(3) {
            let route = String(decoding: request[0], as: UTF8.self)
            let response = String(decoding: request[1], as: UTF8.self)
            guard let decoder = routes[route]?.responses[response] else {
                guard channel.send(["unknown", ""]) else { break }
                continue
            }
            let data = Data(request[2])
            let answer: [String]
            do {
                _ = try decoder.decode(data)
                answer = ["ok", ""]
            } catch {
                answer = ["refused", ContractRunner.variantError(error, data: data, decoder: decoder)]
            }
            guard channel.send(answer) else { break }
        }
        exit(0)
    }
}
