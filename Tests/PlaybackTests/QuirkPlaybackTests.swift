import Playback
import Sessions
import Profiles
import Testing

/// Device quirks the engine plays, on its virtual clock.
@Suite("Quirks in playback")
struct QuirkPlaybackTests {
    static let prerollStall = DeclaredQuirk(kind: .prerollContentStall, source: "shaka-player#2620", basis: .assumed)

    static func plan(_ breaks: [PlannedBreak], stalls: Bool) -> PlaybackPlan {
        var plan = Engine.plan(breaks)
        plan.prerollContentStall = stalls ? Self.prerollStall : nil
        return plan
    }

    @Test("A device with the pre-roll stall loses the session where the pre-roll gives way to the content, and the report says why")
    func prerollStallFires() throws {
        let report = try Engine.run(Self.plan([Engine.ad("pre", at: 0, duration: 4, cue: [.pre]), Engine.ad("mid", at: 20, duration: 5)], stalls: true))
        #expect(report.endReason?.hasPrefix("quirk preroll-content-stall: the switch from pre-roll 'pre' to the content stalled for good") == true)
        #expect(report.endReason?.contains("shaka-player#2620") == true)
        #expect(report.events.last?.state == .failed && report.totals.interstitialsPlayed == 1)
        #expect(report.totals.primarySeconds == 0, "the content never showed")
    }

    @Test("The pre-roll stall is quiet on a stream without a pre-roll, and on a device without the quirk")
    func prerollStallQuiet() throws {
        let midOnly = try Engine.run(Self.plan([Engine.ad("mid", at: 20, duration: 5)], stalls: true))
        #expect(midOnly.endReason == "the primary content played to its end" && !midOnly.events.contains { $0.state == .failed })
        let withoutQuirk = try Engine.run(Self.plan([Engine.ad("pre", at: 0, duration: 4, cue: [.pre])], stalls: false))
        #expect(withoutQuirk.endReason == "the primary content played to its end" && withoutQuirk.totals.primarySeconds == 60)
    }
}

/// The quirks the engine plays itself: the black of a first up-switch, and asset lists resolved at load.
@Suite("Quirks in playback: up-switch black and eager asset lists")
struct EngineQuirkTests {
    static let upSwitchBlack = QuirkBlack(
        quirk: DeclaredQuirk(kind: .firstUpSwitchBlack, source: "androidx/media#2035", basis: .derived, p50Milliseconds: 250, p95Milliseconds: 400),
        milliseconds: 250)
    static let eager = DeclaredQuirk(kind: .eagerAssetLists, source: "shaka-player#10191", basis: .published)

    /// BufferingTests' session that switches down in a congested spell and back up once the network
    /// is fast again; `spells` more slow segments of the top variant make it switch down and up again.
    static func switchingSession(black: QuirkBlack?, slow: [String] = ["https://cdn.example/p/2.ts"]) throws -> SessionReport {
        var plan = BufferingTests.planWithFallback()
        plan.fetching?.variantURI = "https://cdn.example/p/index.m3u8"
        plan.fetching?.bitsPerSecond = 1_333_333
        plan.firstUpSwitchBlack = black
        let spell = FetchTrace(rows: slow.map { .init(uri: $0, bytes: BufferingTests.segmentBytes, firstByteSeconds: 0.1, seconds: 15) })
        return try BufferingTests.run(plan, .replayed(spell, otherwise: BufferingTests.network(100)))
    }

    @Test("A device with the first up-switch black shows it once, where the variant switched up to starts to play, and the report says so")
    func firstUpSwitchBlackFires() throws {
        let report = try Self.switchingSession(black: Self.upSwitchBlack, slow: ["https://cdn.example/p/2.ts", "https://cdn.example/p/7.ts"])
        let ups = (report.variantSwitches ?? []).filter { $0.to == "https://cdn.example/p/index.m3u8" }
        #expect(ups.count == 2, "two switches up, so that only the first blacks: \(report.variantSwitches ?? [])")
        let firings = report.quirks ?? []
        let black = try #require(firings.first, "\(report.events.map(\.reason))")
        #expect(firings.count == 1 && black.quirk == .firstUpSwitchBlack)
        #expect(black.reason.hasPrefix("quirk first-upswitch-black: the picture is black for 250 ms where the first variant switched up to (https://cdn.example/p/index.m3u8) starts to play, at "))
        #expect(black.reason.hasSuffix("(androidx/media#2035)"))
        // The black shows after the switch, on the playhead's clock, at the boundary of a segment of
        // the higher variant (what was buffered of the lower one plays first), before the next switch.
        let event = try #require(report.events.first { $0.kind == .quirkFired })
        #expect(event.time > ups[0].time && event.position >= ups[0].position && event.time < ups[1].time)
        #expect(event.position.truncatingRemainder(dividingBy: 6) == 0, "at \(event.position)")
        #expect(event.state == .playingPrimary && event.quirk == .firstUpSwitchBlack)
        // The picture blacks; the playhead does not stop: the session plays as it would without it.
        let plain = try Self.switchingSession(black: nil, slow: ["https://cdn.example/p/2.ts", "https://cdn.example/p/7.ts"])
        #expect(report.timeline == plain.timeline && report.totals == plain.totals)
    }

    @Test("The up-switch black is quiet on a device without it, and on a session that never switches up")
    func firstUpSwitchBlackQuiet() throws {
        let without = try Self.switchingSession(black: nil)
        #expect(without.variantSwitches?.count == 2 && without.quirks == nil && !without.events.contains { $0.kind == .quirkFired })
        let steady = try Self.switchingSession(black: Self.upSwitchBlack, slow: [])
        #expect(steady.variantSwitches == nil && steady.quirks == nil)
    }

    /// A pre-roll, two mid-rolls and a POST from asset lists, and a mid-roll of a single asset.
    static func listedBreaks() -> [PlannedBreak] {
        [
            Engine.ad("pre", at: 0, duration: 4, cue: [.pre]) { $0.assetList = "pre.json" },
            Engine.ad("mid", at: 20, duration: 5) { $0.assetList = "mid.json" },
            Engine.ad("single", at: 30, duration: 5),
            Engine.ad("late", at: 40, duration: 5) { $0.assetList = "late.json" },
            Engine.ad("post", at: 60, duration: 5, cue: [.post]) { $0.assetList = "post.json" },
        ]
    }

    @Test("A device that resolves asset lists eagerly resolves those of every break after the start at load, in play order, and says so")
    func eagerAssetListsFire() throws {
        var plan = Engine.plan(Self.listedBreaks())
        plan.eagerAssetLists = Self.eager
        let report = try Engine.run(plan)
        let firings = report.quirks ?? []
        #expect(firings.map(\.eventID) == ["mid", "late", "post"], "the pre-roll's list is resolved at load by any device; 'single' has none")
        #expect(firings.allSatisfy { $0.time == 0 && $0.quirk == .eagerAssetLists })
        #expect(firings.first?.reason == "quirk eager-asset-lists: the asset list of 'mid' (mid.json) is resolved at load, not as playback approaches its break at 20 s (shaka-player#10191)")
        #expect(firings.last?.reason.contains("its break after the content") == true)
        // What plays is the same: the quirk moves the requests, not the breaks.
        #expect(Engine.shape(report) == Engine.shape(try Engine.run(Engine.plan(Self.listedBreaks()))))
    }

    @Test("A live reload that brings a break with an asset list has it resolved at once by an eager device")
    func eagerAssetListsOnReload() throws {
        var plan = Engine.plan([Engine.ad("mid", at: 20, duration: 5) { $0.assetList = "mid.json" }], duration: 120)
        plan.eagerAssetLists = Self.eager
        var engine = PlaybackEngine(plan: plan)
        let start = engine.handle(.play(from: nil), at: 0).events.filter { $0.kind == .quirkFired }
        #expect(start.map(\.eventID) == ["mid"])
        var newer = Engine.plan([Engine.ad("mid", at: 20, duration: 5) { $0.assetList = "mid.json" }, Engine.ad("next", at: 90, duration: 5) { $0.assetList = "next.json" }], duration: 120)
        newer.eagerAssetLists = Self.eager
        let reloaded = engine.update(plan: newer, at: 10).events.filter { $0.kind == .quirkFired }
        #expect(reloaded.map(\.eventID) == ["next"] && reloaded.first?.time == 10)
        #expect(reloaded.first?.reason.contains("is resolved as soon as the reloaded playlist names it") == true)
    }

    @Test("Eager asset lists are quiet on a device without the quirk, and on a stream whose breaks have no asset list after the start")
    func eagerAssetListsQuiet() throws {
        #expect(try Engine.run(Engine.plan(Self.listedBreaks())).quirks == nil)
        var plan = Engine.plan([Engine.ad("pre", at: 0, duration: 4, cue: [.pre]) { $0.assetList = "pre.json" }, Engine.ad("single", at: 30, duration: 5)])
        plan.eagerAssetLists = Self.eager
        let report = try Engine.run(plan)
        #expect(report.quirks == nil && !report.events.contains { $0.kind == .quirkFired })
    }
}
