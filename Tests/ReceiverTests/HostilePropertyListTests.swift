import Foundation
import TestSupport
import Testing

/// Property lists that stopped or wedged the reader, found by `fuzz-property-list` and kept in
/// Fuzz/regressions, sent to the real daemon as /play and setProperty bodies: each is a 400, and the
/// receiver serves on.
@Suite("airlabd survives hostile property lists")
struct HostilePropertyListTests {
    static let regressions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions/property-list")

    @Test("An XML property list that is not UTF-8 and a binary one whose objects share children are 400s, and the receiver answers afterwards")
    func hostileBodiesAreRefused() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path).sorted()
        try #require(names.count >= 2)
        try await withDaemon(["--profile", "apple-tv-4k", "--port", "0"]) { daemon in
            for name in names {
                let body = try Data(contentsOf: Self.regressions.appendingPathComponent(name))
                let started = ContinuousClock.now
                let play = try await daemon.send("POST", "/play", headers: ["Content-Type": "application/x-apple-binary-plist"], body: body)
                #expect(play.status == 400, "\(name): \(play)")
                let property = try await daemon.send(
                    "PUT", "/setProperty?interstitialEvents", headers: ["Content-Type": "application/x-apple-binary-plist"], body: body)
                #expect(property.status == 400, "\(name): \(property)")
                // A bound far above the few milliseconds these take, far below the minutes a walk would.
                #expect(ContinuousClock.now - started < .seconds(30), "\(name) took \(ContinuousClock.now - started)")
                #expect(try await daemon.send("GET", "/server-info").status == 200, "the receiver answers after \(name)")
            }
        }
    }
}
