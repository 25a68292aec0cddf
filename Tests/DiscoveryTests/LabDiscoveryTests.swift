import Foundation
import Testing
import TestSupport

/// `airlab discover` and a lab run over mDNS, with `airlabd` and `airlab` both inside the test's
/// network namespace: nothing of it multicasts on the machine's own interfaces.
extension MDNSTests.Namespaced {
    @Test("airlab discover lists a fleet airlabd publishes, and a lab run on all of it reaches every receiver it found")
    func discoverAndRunTheFleet() async throws {
        try await MDNSNamespace.with { namespace in
            try await namespace.startAvahi()
            let media = try await TestMedia.stage(["show": try await TestMedia.hls(.baseline, .transportStream)])
            defer { media.remove() }
            let inside = ["/usr/sbin/ip", "netns", "exec", namespace.name]
            let fleet = try await DaemonProcess.start(
                ["--profile", "apple-tv-4k", "--profile", "smart-tv-low", "--port", "0", "--time-scale", "20",
                 "--state-dir", media.url.appendingPathComponent("state").path],
                local: false, prefix: inside, in: media.url)
            defer { Task { await fleet.stop() } }
            let airlab = CommandRunner.productsDirectory.appendingPathComponent("airlab").path
            func run(_ arguments: [String]) async throws -> CommandResult {
                try await BlockingWork.run {
                    try CommandRunner.run(executableURL: URL(fileURLWithPath: inside[0]), Array(inside.dropFirst()) + [airlab] + arguments)
                }
            }

            // Publishing takes avahi a moment (probing the names); discovery is asked until both answer.
            let listed = try await eventually(tries: 40) { () -> [[String: Any]]? in
                let result = try await run(["discover", "--json", "--timeout", "2"])
                let document = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                let receivers = (document?["receivers"] as? [[String: Any]] ?? []).filter { $0["airlab"] as? Bool == true }
                return receivers.count == 2 ? receivers : nil
            }
            let receivers = try #require(listed, "airlab discover never listed both receivers")
            for announced in fleet.receivers {
                let entry = try #require(receivers.first { $0["name"] as? String == announced.name })
                #expect(entry["port"] as? Int == Int(announced.port))
                #expect(entry["profile"] as? String == announced.profile)
                #expect(entry["address"] as? String == MDNSNamespace.address)
                #expect((entry["deviceid"] as? String)?.count == 17)
                #expect(entry["model"] is String)
                // The TXT record sends a sender down the path the profile's device takes.
                let airPlay2 = announced.profile == "apple-tv-4k"
                #expect(entry["path"] as? String == (airPlay2 ? "airplay2" : "airplay1"))
                #expect(entry["pairing"] as? String == (airPlay2 ? "pin" : "none"))
            }

            let out = media.url.appendingPathComponent("reports")
            let lab = try await run(["lab", "run", media.url.appendingPathComponent("show/index.m3u8").path, "--receivers", "all", "--out", out.path])
            #expect(lab.status == 0, "stdout: \(lab.stdout)\nstderr: \(lab.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
            let sessions = try #require(report["sessions"] as? [[String: Any]])
            #expect(Set(sessions.compactMap { $0["profile"] as? String }) == ["apple-tv-4k", "smart-tv-low"])
            // The local folder was served on the address the receivers reach this host at: the veth's.
            #expect(sessions.allSatisfy { ($0["playlist"] as? String)?.hasPrefix("http://\(MDNSNamespace.address):") == true })
        }
    }
}
