/// `GET /__mockapi/health` and `GET /__mockapi/ready`, for container health checks and
/// orchestrators' probes: answered before the admin guard (a probe sends neither the admin token
/// nor a loopback Host), so they say only a status word. Never journaled, so a probe every few
/// seconds neither fills the journal nor counts in `coverage`.
extension Responder {
    package static let healthPath = "/__mockapi/health"
    package static let readyPath = "/__mockapi/ready"

    /// The answer when `path` is one of the two probes, else nil (the admin API decides).
    func probeAnswer(method: String, path: String) -> GeneratedResponse? {
        let status: (code: Int, text: String)
        switch path {
        case Self.healthPath: status = (200, "ok")
        case Self.readyPath:
            let state = readiness.state
            status = (state == .ready ? 200 : 503, state.text)
        default: return nil
        }
        guard method == "GET" || method == "HEAD" else {
            return GeneratedResponse(status: 405, json: ["error": .string("\(path) answers GET and HEAD")], headers: [HTTPField("Allow", "GET, HEAD")])
        }
        return GeneratedResponse(status: status.code, json: ["status": .string(status.text)], headers: [HTTPField("Cache-Control", "no-store")])
    }
}
