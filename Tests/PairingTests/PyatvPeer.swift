import ChildProcess
import Foundation
import TestSupport

/// pyatv's own HAP pieces in a Python process (Resources/pyatv_peer.py), as the other end of a
/// pairing: it listens on 127.0.0.1, says its port on standard output, and speaks the script's line
/// protocol (hex bodies and frames) over one connection. Blocking: use it from `BlockingWork.run`.
final class PyatvPeer: @unchecked Sendable {
    private let process: ChildProcess
    private let socket: RawSocket
    private let log: URL
    private var buffered = Data()

    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    init(mode: String, scratch: Scratch) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/pyatv_peer.py")
        log = scratch.url.appendingPathComponent("pyatv-\(mode).log")
        process = try ChildProcess(
            [try RealSenders.tool("python").path, script.path, mode], standardOutput: .pipe, standardError: .file(log, append: false))
        guard let line = process.readLine(), let port = UInt16(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            _ = process.terminate()
            throw TestSupportError("pyatv_peer.py \(mode) did not say its port: \(Self.text(of: log))")
        }
        socket = try RawSocket(port: port, receiveTimeoutSeconds: 60)
    }

    func send(_ line: String) throws { try socket.send(line + "\n") }

    /// The peer's next line; throws with its log when it said nothing (it failed or ended).
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    func receive() throws -> String {
        while buffered.firstIndex(of: 10) == nil {
            let more = socket.read { !$0.isEmpty }
            guard !more.isEmpty else { throw TestSupportError("pyatv_peer.py said nothing more: \(Self.text(of: log))") }
            buffered += more
        }
        let end = buffered.firstIndex(of: 10)!
        let line = String(decoding: buffered[buffered.startIndex..<end], as: UTF8.self)
        buffered = Data(buffered[(end + 1)...])
        return line
    }

    /// The bytes of a "WORD <hex>" line the peer sent.
    @available(*, noasync, message: "it blocks: call it from a thread of its own, not from async code")
    func receive(_ word: String) throws -> [UInt8] {
        let line = try receive()
        guard line.hasPrefix(word + " ") else { throw TestSupportError("pyatv_peer.py sent '\(line.prefix(80))' where \(word) was expected") }
        return [UInt8](hex: String(line.dropFirst(word.count + 1)))
    }

    func close() {
        socket.close()
        _ = process.terminate()
    }

    private static func text(of log: URL) -> String {
        String(String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).suffix(2000))
    }
}
