import Foundation

/// A pseudo-terminal to hand a process as stderr, so it sees a TTY as it would in a shell.
final class PseudoTerminal {
    private let primary: Int32
    /// The terminal side, for `Process.standardError`.
    let terminal: FileHandle

    init() throws {
        var primary: Int32 = -1, secondary: Int32 = -1
        guard openpty(&primary, &secondary, nil, nil, nil) == 0 else { throw POSIXError(.ENOTTY) }
        self.primary = primary
        // Raw: no "\n" → "\r\n", so the text reads back as written.
        var settings = termios()
        tcgetattr(secondary, &settings)
        cfmakeraw(&settings)
        tcsetattr(secondary, TCSANOW, &settings)
        terminal = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
    }

    /// Everything written so far; call after the writer has exited and `terminal` is closed here.
    func readAll() -> String {
        try? terminal.close()
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(primary, &buffer, buffer.count) // EIO once drained and no writer is left
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }

    deinit { close(primary) }
}
