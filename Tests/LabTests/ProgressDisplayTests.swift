@testable import Lab
import SenderProtocol
import Testing

@Suite("Progress displays")
struct ProgressDisplayTests {
    /// The events of the fake's session as a receiver streams them.
    func events() throws -> [SessionEvent] {
        try FakeReceiver.simulatedSession(profile: "apple-tv-4k").events.map { event in
            try SessionEvent(eventName: nil, data: FakeReceiver.json(event, session: "s1"))
        }
    }

    @Test("The line names the state, the interstitial and the last switch, and polls fill in the position")
    func castLine() throws {
        var progress = SessionProgress()
        let all = try events()
        let intoAd = try #require(all.firstIndex { $0.knownKind == .assetStarted })
        for event in all[...intoAd] { progress.apply(event) }
        progress.apply(PlaybackProgress(duration: 5, position: 2))
        #expect(progress.line == "playing-interstitial  'ad-1' asset 1  2.0 / 5.0 s  | last switch 1200 ms")
        let backInPrimary = try #require(all.firstIndex { $0.knownKind == .transitionStarted && $0.event?.assetIndex == nil })
        for event in all[(intoAd + 1)...backInPrimary] { progress.apply(event) }
        #expect(progress.interstitial == nil && progress.duration == nil, "the interstitial's numbers are gone after the switch back")
        for event in all[(backInPrimary + 1)...] { progress.apply(event) }
        #expect(progress.line == "ended (the primary content played to its end); 1 interstitial(s) played, last switch 40 ms")
    }

    @Test("On a terminal the board redraws one line per receiver in place")
    func interactiveBoard() {
        let written = Shared<[String]>([])
        let receivers = [Receiver(name: "Den", address: ReceiverAddress(host: "h", port: 1)), Receiver(name: "Living Room", address: ReceiverAddress(host: "h", port: 2))]
        let board = FleetBoard(receivers: receivers, interactive: true) { text in written.update { $0.append(text) } }
        var progress = SessionProgress()
        progress.state = "playing-primary"
        board.update(1, progress)
        board.update(0, progress)
        let frames = written.current
        #expect(frames.count == 2)
        #expect(frames[0] == "\r\u{1B}[2KDen          connecting\n\r\u{1B}[2KLiving Room  playing-primary\n")
        #expect(frames[1].hasPrefix("\u{1B}[2A\r\u{1B}[2KDen          playing-primary\n"))
    }
}
