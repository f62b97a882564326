import Foundation
import MockAPICore
import MockAPITestSupport

/// nginx from the system's packages (Debian's `nginx`, installed by scripts/setup), run by a test
/// as a balancer in front of several `mockapi serve` instances: its configuration, logs, pid and
/// temporary files in a folder of its own (so it runs as root or not, without /var), in the
/// foreground, as one process (`master_process off`: stopping it by its PID leaves no worker).
final class Nginx {
    /// The nginx binary, or nil when it is not installed (the test then says it was skipped).
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        return (path + ["/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"]).map { $0 + "/nginx" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The folder with its configuration, logs and temporary files; removed by `stop()`.
    let folder: URL
    let port: Int
    private let process: ChildProcess

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests it proxied, one per line: `upstream-address method uri`.
    var accessLog: String { (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? "" }

    /// Starts nginx with `http` as its `http { … }` block, the listen port given as `{{port}}`,
    /// and waits until it answers. Retries with another free port when the one picked was taken
    /// meanwhile.
    init(http: (_ port: Int) throws -> String) throws {
        guard let executable = Self.executable else { throw Failure(description: "nginx is not installed: run scripts/setup") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mockapi-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var attempt = 0
        while true {
            attempt += 1
            let port = try Self.freePort()
            let balancer = try http(port)
            let configuration = """
                master_process off;
                worker_processes 1;
                error_log \(folder.path)/error.log warn;
                pid \(folder.path)/nginx.pid;
                events { worker_connections 256; }
                http {
                    client_body_temp_path \(folder.path)/client_body;
                    proxy_temp_path \(folder.path)/proxy;
                    fastcgi_temp_path \(folder.path)/fastcgi;
                    uwsgi_temp_path \(folder.path)/uwsgi;
                    scgi_temp_path \(folder.path)/scgi;
                    log_format upstream '$upstream_addr $request_method $request_uri';
                    access_log \(folder.path)/access.log upstream;
                \(balancer)
                }

                """
            try Data(configuration.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
            let process = ChildProcess(URL(fileURLWithPath: executable))
            process.arguments = ["-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path, "-e", folder.appendingPathComponent("error.log").path, "-g", "daemon off;"]
            // Nothing to read: its errors go to error.log (`-e` and `error_log`). nil is /dev/null.
            process.standardInput = nil
            process.standardOutput = nil
            process.standardError = nil
            try process.run()
            // A connection, not a request: a request would be proxied, and journaled by an instance.
            let up = within(10) { !process.isRunning || Self.accepts(port) }
            if up && process.isRunning {
                self.port = port
                self.process = process
                return
            }
            process.signal(SIGKILL)
            process.waitUntilExit()
            let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            guard attempt < 3, log.contains("Address already in use") else {
                try? FileManager.default.removeItem(at: folder)
                throw Failure(description: "nginx did not start: \(log)")
            }
        }
    }

    /// Stops it by its PID and removes its folder.
    func stop() {
        if process.isRunning {
            process.signal(SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether something accepts connections on loopback `port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A loopback port nothing listens on now (bound to port 0, read, released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
