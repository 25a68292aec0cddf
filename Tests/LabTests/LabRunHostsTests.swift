import Foundation
import Testing
import TestSupport
@testable import Lab

/// `airlab lab run` over two real `airlabd` processes that stand for two hosts: one listens on
/// 127.0.0.1, the other on 127.0.0.2, and a receivers file names them both.
@Suite("airlab lab run over several hosts")
struct LabRunHostsTests {
    @Test("A receivers file over two hosts gives one report with a lane per receiver, names shared across hosts told apart, and --per-host 1 plays one session at a time on each")
    func twoHosts() async throws {
        let media = try await LabStream.stage()
        defer { media.remove() }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let hostA = try await EndToEnd.fleet(["apple-tv-4k", "smart-tv-high"], timeScale: 20, in: scratch.url)
        defer { Task { await hostA.stop() } }
        let hostB = try await DaemonProcess.start(
            ["--profile", "apple-tv-4k", "--port", "0", "--time-scale", "20", "--address", "127.0.0.2", "--no-mdns",
             "--state-dir", scratch.url.appendingPathComponent("state-b").path],
            local: false, in: scratch.url)
        defer { Task { await hostB.stop() } }
        let (atv, tv) = (hostA.receivers[0], hostA.receivers[1])
        let remote = try #require(hostB.receivers.first)

        let hosts = scratch.url.appendingPathComponent("hosts.txt")
        try Data("""
            # host A
            127.0.0.1:\(atv.port)
            127.0.0.1:\(tv.port)
            # host B
            127.0.0.2:\(remote.port)

            """.utf8).write(to: hosts)
        let out = scratch.url.appendingPathComponent("reports")
        let result = try await BlockingWork.airlab([
            "lab", "run", media.url.appendingPathComponent("show.m3u8").path, "--receivers-file", hosts.path, "--per-host", "1", "--out", out.path,
        ])
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        #expect((document["failures"] as? [Any])?.isEmpty == true)
        let lanes = (document["sessions"] as? [[String: Any]] ?? []).compactMap { $0["profile"] as? String }
        #expect(lanes == [
            "apple-tv-4k @ \(atv.name) (127.0.0.1:\(atv.port))", "smart-tv-high", "apple-tv-4k @ \(remote.name) (127.0.0.2:\(remote.port))",
        ])

        // Host A's second receiver starts only once its first has ended.
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func index(_ prefix: String, _ milestone: String) -> Int? {
            lines.firstIndex { $0.hasPrefix(prefix + ": ") && $0.contains(milestone) }
        }
        let firstEnded = try #require(index("\(atv.name) (127.0.0.1:\(atv.port))", "ended"), "\(result.stdout)")
        let secondStarted = try #require(index(tv.name, "started"), "\(result.stdout)")
        let remoteStarted = try #require(index("\(remote.name) (127.0.0.2:\(remote.port))", "started"), "\(result.stdout)")
        let secondEnded = try #require(index(tv.name, "ended"), "\(result.stdout)")
        #expect(secondStarted > firstEnded, "\(result.stdout)")
        // Host B's one session does not queue behind host A's two (one slot for all would put it last).
        #expect(remoteStarted < secondEnded, "\(result.stdout)")
    }

    @Test("A bad receivers file stops the run before anything is cast, naming the file, the line and the reason")
    func badFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let hosts = scratch.url.appendingPathComponent("hosts.txt")
        try Data("127.0.0.1:7000\n127.0.0.1:7010-7000\n".utf8).write(to: hosts)
        let result = try await BlockingWork.airlab(["lab", "run", "http://127.0.0.1:9/show.m3u8", "--receivers-file", hosts.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(hosts.path):2: '127.0.0.1:7010-7000': the port range runs backwards (7010 is after 7000)"), "\(result.stderr)")
    }
}
