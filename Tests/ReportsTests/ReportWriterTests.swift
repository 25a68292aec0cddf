import Casting
import Foundation
import FoundationXML
import Playback
import Profiles
@testable import Reports
import Sessions
import Testing

/// A run of two receivers over a 60 s primary with two ads: one that switches in 200 ms, one that
/// switches in 1800 ms (a display mode change); the second receiver cannot decode the second ad. The
/// sender tries to seek forward inside the first ad, which restricts SKIP.
private func run() -> SimulationReport {
    func ad(_ id: String, at position: Double, switching milliseconds: Double, failure: String? = nil) -> PlannedBreak {
        var transition = Transition(video: [Transition.Cost(cause: "splice", milliseconds: 50, source: "test")])
        if milliseconds > 50 {
            transition.video.append(Transition.Cost(cause: "frame_rate", milliseconds: milliseconds - 50, source: "test", detail: "30/1 -> 25/1"))
        }
        return PlannedBreak(
            eventID: id, position: position, resumeOffset: 0, restrictions: .skip,
            assets: [PlannedAsset(uri: "https://ads.example/\(id).m3u8", duration: 10, failure: failure)],
            transitionIn: transition, transitionOut: Transition(video: [Transition.Cost(cause: "splice", milliseconds: 40, source: "test")]))
    }
    let plan = { (failure: String?) in
        PlaybackPlan(primaryDuration: 60, breaks: [ad("ad-1", at: 10, switching: 200), ad("ad-2", at: 30, switching: 1800, failure: failure)])
    }
    let sessions = [("tv-high", plan(nil)), ("tv-low", plan("cannot decode hevc"))].map { profile, plan in
        Simulation.report(
            plan: plan, script: (try? SenderScript(parsing: "at 12 seek 20")) ?? SenderScript(),
            recorder: SessionRecorder(profile: profile, playlist: "show.m3u8", seed: 1, startPosition: 0))
    }
    return SimulationReport(playlist: "show.m3u8", seed: 1, sessions: sessions, failures: [.init(profile: "soundbar", reason: "no <audio> & \"no\" video")])
}

@Suite("Lab report writers")
struct ReportWriterTests {
    @Test("Each break of each receiver becomes one outcome with its switches and what differed")
    func outcomes() throws {
        let report = run()
        let high = BreakOutcome.outcomes(of: report.sessions[0])
        try #require(high.map(\.eventID) == ["ad-1", "ad-2"])
        #expect(high.allSatisfy { $0.played })
        #expect(high[1].mismatches == ["frame_rate 30/1 -> 25/1"])
        #expect(high[1].worstTransitionMilliseconds == 1800)
        let low = BreakOutcome.outcomes(of: report.sessions[1])
        try #require(low.count == 2)
        #expect(low[1].played == false && low[1].skipReason?.contains("cannot decode hevc") == true)
    }

    @Test("JUnit XML parses, has a test case per receiver and break, and fails the slow and the skipped ones")
    func junit() throws {
        let xml = JUnitReport.render(run(), thresholds: LabThresholds(maxTransitionMilliseconds: 1000))
        let document = try XMLDocument(data: Data(xml.utf8))
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "5")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        let cases = try root.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }.map {
            "\($0.attribute(forName: "classname")!.stringValue!)/\($0.attribute(forName: "name")!.stringValue!)"
        }
        #expect(failing == ["airlab.tv-high/ad-2", "airlab.tv-low/ad-2"])
        let message = try #require(cases.first { $0.attribute(forName: "classname")?.stringValue == "airlab.tv-high" && !$0.elements(forName: "failure").isEmpty }?
            .elements(forName: "failure").first?.attribute(forName: "message")?.stringValue)
        #expect(message == "a transition took 1800 ms, more than the 1000 ms allowed")
        let error = try #require(try root.nodes(forXPath: "//error").first as? XMLElement)
        #expect(error.attribute(forName: "message")?.stringValue == "no <audio> & \"no\" video")
    }

    @Test("Without a threshold only breaks that did not play fail")
    func noThreshold() throws {
        let xml = JUnitReport.render(run(), thresholds: LabThresholds())
        let root = try #require(try XMLDocument(data: Data(xml.utf8)).rootElement())
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
    }

    @Test("The HTML report is well-formed, tables every break, and draws one SVG lane per receiver with its refusals")
    func html() throws {
        let html = HTMLReport.render(run(), thresholds: LabThresholds(maxTransitionMilliseconds: 1000))
        let document = try XMLDocument(data: Data(html.utf8))
        let rows = try document.nodes(forXPath: "//*[local-name()='tr'][@data-event]")
        #expect(rows.count == 4)
        let lanes = try document.nodes(forXPath: "//*[local-name()='svg']/*[local-name()='g'][@class='lane']").compactMap { $0 as? XMLElement }
        // Attributes are looked up by name among all of them: inside the SVG namespace, Linux's
        // attribute(forName:) does not find unprefixed ones.
        func attribute(_ name: String, of element: XMLElement) -> String? {
            element.attributes?.first { $0.name == name }?.stringValue
        }
        try #require(lanes.compactMap { attribute("data-profile", of: $0) } == ["tv-high", "tv-low"])
        let kinds = Set((try lanes[0].nodes(forXPath: "*[local-name()='rect']").compactMap { $0 as? XMLElement }).compactMap { attribute("class", of: $0) })
        #expect(kinds.isSuperset(of: ["primary", "interstitial", "transition"]))
        // The seek at 12 s, inside ad-1, is refused by SKIP and marked on both lanes.
        #expect(try lanes[0].nodes(forXPath: "*[local-name()='path'][@class='refused']").count == 1)
        #expect(html.contains("frame_rate 30/1 -&gt; 25/1"))
        #expect(html.contains("soundbar"))
        #expect(!html.contains("img class=\"frame\""))
    }

    @Test("Given frames, each break's row embeds the last frame before it and the first after, and says where there is none")
    func frames() throws {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xD9])
        let eventIDs = Set(run().sessions.flatMap { $0.timeline.compactMap(\.eventID) })
        let first = try #require(eventIDs.sorted().first)
        let html = HTMLReport.render(run(), thresholds: LabThresholds(), frames: [first: HTMLReport.BreakFrames(before: jpeg, after: nil)])
        let document = try XMLDocument(data: Data(html.utf8))
        let images = try document.nodes(forXPath: "//*[local-name()='tr'][@data-event='\(first)']//*[local-name()='img']").compactMap { $0 as? XMLElement }
        #expect(!images.isEmpty)
        #expect(images.allSatisfy { $0.attributes?.first { $0.name == "src" }?.stringValue == "data:image/jpeg;base64,\(jpeg.base64EncodedString())" })
        #expect(html.contains("no picture"))
    }
}
