import Foundation
import HLS
@testable import Playback
@testable import Profiles
@testable import Sessions
import Testing

/// The engine's media buffer on the virtual clock: fetches answered by a modelled network or by a
/// scripted trace (`FetchTrace`), never by sleeping.
@Suite("Buffering: fetches, stalls and failures")
struct BufferingTests {
    /// hls.js-like numbers, small enough to read: 12 s ahead, 6 s to start and to resume, no lead.
    static let model = BufferModel(
        family: "test", forwardTarget: .init(12, source: "test"), startupBuffer: .init(6, source: "test"),
        rebufferResume: .init(6, source: "test"), preloadLead: .init(0, source: "test"),
        retry: RetryPolicy(retries: 2, firstDelaySeconds: 1, growth: 2, maximumDelaySeconds: 8, timeoutSeconds: 20, retriesClientErrors: false, source: "test"))

    /// 1 MB per 6 s segment (1.33 Mbit/s).
    static let segmentBytes = 1_000_000

    /// 60 s of primary in 6 s segments, with `ads` at 30 s (each asset 10 s in 2 s segments).
    static func plan(ads: Int = 0, assets: Int = 2) -> PlaybackPlan {
        var breaks: [PlannedBreak] = []
        if ads > 0 {
            breaks.append(Engine.ad("ad", at: 30, duration: 10 * Double(assets), assets: assets) { event in
                for index in event.assets.indices {
                    event.assets[index].segments = SegmentList((0..<5).map {
                        PlannedSegment(uri: "https://ads.example/ad/\(index)/\($0).ts", duration: 2, bytes: Self.segmentBytes / 3)
                    })
                }
            })
        }
        var plan = Engine.plan(breaks)
        let primary = SegmentList((0..<10).map { PlannedSegment(uri: "https://cdn.example/p/\($0).ts", duration: 6, bytes: Self.segmentBytes) })
        plan.fetching = FetchPlan(primary: primary, buffer: model)
        return plan
    }

    /// A network of `mbps` with no round trip.
    static func network(_ mbps: Double) -> SegmentNetworkModel {
        SegmentNetworkModel(roundTripSeconds: 0, bitsPerSecond: mbps * 1e6)
    }

    static func run(_ plan: PlaybackPlan, _ delivery: SegmentDelivery, script: String = "") throws -> SessionReport {
        let recorder = SessionRecorder(profile: "test", playlist: "test.m3u8", seed: 1, startPosition: 0)
        return Simulation.report(plan: plan, script: try SenderScript(parsing: script), recorder: recorder, delivery: delivery)
    }

    static func stalls(_ report: SessionReport) -> [SessionReport.TimelineEntry] {
        report.timeline.filter { $0.kind == .stall }
    }

    @Test("On a network far faster than the media nothing stalls, the first frame waits for the startup buffer, and the breaks play where they are")
    func fastNetworkPlaysThrough() throws {
        let report = try Self.run(Self.plan(ads: 1), .modelled(Self.network(100)))
        #expect(Self.stalls(report).isEmpty, "\(report.timeline)")
        #expect(Engine.shape(report) == ["P0-30", "I:ad", "I:ad#1", "P50-60"])
        // One 1 MB segment at 100 Mbit/s is 0.08 s: the startup buffer (6 s, one segment) arrives then.
        let startup = try #require(report.totals.startupSeconds)
        #expect(abs(startup - 0.08) < 1e-6, "startup \(startup)")
        let media = try #require(report.media)
        #expect(media.mode == "verify")
        // Primary segments 0–4 and 8–9 (5–7 lie under the break's 20 s) and ten ad segments.
        #expect(media.segments == 17, "\(media)")
        #expect(report.totals.rebufferingRatio == 0)
    }

    @Test("Fetches keep the forward target and no more: a segment is asked for only once less than 12 s is buffered ahead")
    func fetchesKeepTheForwardTarget() throws {
        var plan = Self.plan()
        plan.fetching?.buffer.forwardTarget = .init(12, source: "test")
        var engine = PlaybackEngine(plan: plan)
        var requests: [(time: Double, index: Int, ahead: Double)] = []
        var pending: [(at: Double, id: UInt64)] = []
        var asked = engine.handle(.play(from: nil), at: 0).actions
        var steps = 0
        while engine.isActive, steps < 1000 {
            steps += 1
            for action in asked {
                guard case .fetch(let fetch) = action else { continue }
                requests.append((engine.now, fetch.index, engine.bufferStatus?.ahead ?? 0))
                pending.append((engine.now + 0.1, fetch.id))
            }
            asked = []
            let next = [engine.nextDeadline, pending.first?.at].compactMap { $0 }.min()
            guard let next else { break }
            if let first = pending.first, first.at <= next {
                pending.removeFirst()
                asked = engine.segmentLoaded(first.id, at: first.at).actions
            } else {
                asked = engine.advance(to: next).actions
            }
        }
        #expect(requests.map(\.index) == Array(0..<10), "\(requests)")
        #expect(pending.count <= 1)
        // After the first two (startup, then up to the target) each request waits for the buffer to fall below 12 s.
        for request in requests.dropFirst(2) {
            #expect(request.ahead < 12 + 1e-6 && request.ahead > 11.8, "segment \(request.index) asked for at \(request.time) with \(request.ahead) s ahead")
        }
    }

    @Test("On a network slower than the media the playhead stalls on late segments and resumes once the rebuffer threshold is met")
    func slowNetworkStalls() throws {
        // 1 MB per 6 s is 1.33 Mbit/s; at 1 Mbit/s each segment takes 8 s.
        let report = try Self.run(Self.plan(), .modelled(Self.network(1)))
        let stalls = Self.stalls(report)
        #expect(!stalls.isEmpty)
        #expect(stalls.allSatisfy { $0.stall == .segmentLate }, "\(stalls)")
        #expect(report.totals.stalls == stalls.count)
        #expect(report.totals.stallSeconds > 0 && report.totals.rebufferingRatio > 0 && report.totals.rebufferingRatio < 1)
        // The whole primary still plays, positions unbroken.
        #expect(report.endReason == "the primary content played to its end")
        let played = report.timeline.filter { $0.kind == .primary }.reduce(0) { $0 + (($1.positionEnd ?? 0) - ($1.positionStart ?? 0)) }
        #expect(abs(played - 60) < 1e-6)
        // Every stall resumes with 6 s buffered: one more segment, so each lasts 8 s minus what was in flight.
        #expect(stalls.allSatisfy { $0.end - $0.start <= 8 + 1e-6 }, "\(stalls)")
    }

    @Test("A segment inside an ad answering 404 then 200 is not retried (hls.js never retries a 4xx) and the asset fails; a 503 then 200 is retried after the policy's delay")
    func retriesFollowThePolicy() throws {
        // Segments 0–2 are preloaded before the break; 3 is the first fetched while the asset plays.
        let ad = "https://ads.example/ad/0/3.ts"
        let notFound = FetchTrace(rows: [
            .init(uri: ad, attempt: 1, status: 404, bytes: 0, firstByteSeconds: 0.01, seconds: 0.01),
        ])
        let failed = try Self.run(Self.plan(ads: 1), .replayed(notFound, otherwise: Self.network(100)))
        #expect(failed.totals.assetsFailed == 1 && failed.totals.segmentErrors == 1, "\(failed.events.map(\.kind))")
        // The first asset failed mid-play: the second asset plays whole, then primary.
        let kinds = failed.events.filter { [.assetStarted, .assetFailed, .assetEnded].contains($0.kind) }.map { "\($0.kind.rawValue)#\($0.assetIndex ?? -1)" }
        #expect(kinds == ["asset-started#0", "asset-failed#0", "asset-started#1", "asset-ended#1"], "\(kinds)")
        #expect(Engine.shape(failed).first == "P0-30" && Engine.shape(failed).last == "P50-60", "\(failed.timeline)")
        let second = try #require(failed.timeline.first { $0.kind == .interstitial && $0.assetIndex == 1 })
        #expect(abs(second.end - second.start - 10) < 1e-6)

        let unavailable = FetchTrace(rows: [
            .init(uri: ad, attempt: 1, status: 503, bytes: 0, firstByteSeconds: 0.01, seconds: 0.01),
        ])
        let retried = try Self.run(Self.plan(ads: 1), .replayed(unavailable, otherwise: Self.network(100)))
        #expect(retried.totals.assetsFailed == 0 && retried.totals.segmentErrors == 1)
        let retry = try #require(retried.events.first { $0.kind == .segmentFailed })
        #expect(retry.reason.contains("retry 1 of 2 in 1 s"), "\(retry)")
        #expect(Self.stalls(retried).isEmpty, "a 1 s retry with 4 s buffered ahead must not stall: \(retried.timeline)")
    }

    @Test("A retry that takes longer than the buffer ahead stalls with the segment error as its reason, on the slow profile only")
    func retryStallsASlowReceiver() throws {
        // The asset starts with 6 s buffered; the retry comes 5 s later. At 100 Mbit/s the 333 kB
        // segment then takes 27 ms (in time); at 1.5 Mbit/s it takes 1.78 s (too late: a stall).
        let ad = "https://ads.example/ad/0/3.ts"
        let trace = FetchTrace(rows: [.init(uri: ad, attempt: 1, status: 503, bytes: 0, firstByteSeconds: 0.01, seconds: 0.01)])
        var plan = Self.plan(ads: 1)
        plan.fetching?.buffer.retry.firstDelaySeconds = 5
        let fast = try Self.run(plan, .replayed(trace, otherwise: Self.network(100)))
        let slow = try Self.run(plan, .replayed(trace, otherwise: Self.network(1.5)))
        #expect(Self.stalls(fast).isEmpty && Self.stalls(slow).filter { $0.eventID == "ad" }.count == 1, "\(Self.stalls(slow).map { "\($0.start)-\($0.end) \($0.stall!) \($0.eventID ?? "-")" })")
        #expect(Self.stalls(fast).filter { $0.eventID == "ad" }.isEmpty, "\(fast.timeline)")
        let inAd = Self.stalls(slow).filter { $0.eventID == "ad" }
        #expect(inAd.contains { $0.stall == .segmentError }, "\(slow.timeline)")
        let perBreak = try #require(slow.media?.breaks.first { $0.eventID == "ad" })
        #expect(perBreak.stallSeconds > 0 && perBreak.rebufferingRatio > 0)
    }

    @Test("When every asset of a break fails, primary resumes after it; a primary segment that fails ends the session with a media error")
    func failuresFallBack() throws {
        let rows = (0..<2).map { FetchTrace.Row(uri: "https://ads.example/ad/\($0)/0.ts", status: 404, bytes: 0, firstByteSeconds: 0, seconds: 0.01) }
        let noAds = try Self.run(Self.plan(ads: 1), .replayed(FetchTrace(rows: rows), otherwise: Self.network(100)))
        #expect(noAds.totals.assetsFailed + noAds.totals.assetsSkipped >= 2, "\(noAds.events.map(\.kind))")
        #expect(Engine.shape(noAds).first == "P0-30" && Engine.shape(noAds).last?.hasSuffix("-60") == true, "\(Engine.shape(noAds))")
        #expect(noAds.endReason == "the primary content played to its end")

        let primary = FetchTrace(rows: (1...3).map { .init(uri: "https://cdn.example/p/3.ts", attempt: $0, status: 500, bytes: 0, firstByteSeconds: 0, seconds: 0.01) })
        let failed = try Self.run(Self.plan(), .replayed(primary, otherwise: Self.network(100)))
        #expect(failed.endReason?.hasPrefix("media error: segment 4 of primary") == true, "\(failed.endReason ?? "")")
        #expect(failed.events.last?.state == .failed)
        #expect(failed.totals.segmentErrors == 3)
    }

    /// `plan(ads:)` with a separate audio rendition under primary: 6 s segments of 100 kB.
    static func planWithAudio(ads: Int = 0) -> PlaybackPlan {
        var plan = Self.plan(ads: ads)
        plan.fetching?.primaryAudio = SegmentList((0..<10).map { PlannedSegment(uri: "https://cdn.example/a/\($0).aac", duration: 6, bytes: 100_000) })
        return plan
    }

    @Test("A separate audio rendition is fetched alongside the video, the part that ends first next: video and audio alternate, and both count")
    func separateAudioIsFetchedAlongside() throws {
        let (report, trace) = try FetchTraceRecordingTests.play(Self.planWithAudio(), .modelled(Self.network(100)), script: "")
        #expect(Self.stalls(report).isEmpty, "\(report.timeline)")
        let names = trace.rows.map { URL(string: $0.uri)!.path }
        #expect(names.prefix(6) == ["/p/0.ts", "/a/0.aac", "/p/1.ts", "/a/1.aac", "/p/2.ts", "/a/2.aac"], "\(names)")
        #expect(names.count == 20 && Set(names).count == 20, "each segment of both parts once: \(names)")
        #expect(report.media?.segments == 20 && report.media?.bytes == 10 * Self.segmentBytes + 10 * 100_000)
        #expect(report.endReason == "the primary content played to its end")
    }

    @Test("Video buffered far ahead does not play without its audio: a late audio segment stalls the playhead where the audio ends, until it arrives")
    func lateAudioStalls() throws {
        // The fourth audio segment (18–24 s) takes 15 s; it is asked for at about 6 s with the video
        // then buffered to 24 s, so the playhead stops at 18 s for about 3 s.
        let late = FetchTrace(rows: [.init(uri: "https://cdn.example/a/3.aac", bytes: 100_000, firstByteSeconds: 0.1, seconds: 15)])
        let report = try Self.run(Self.planWithAudio(), .replayed(late, otherwise: Self.network(100)))
        let stalls = Self.stalls(report)
        try #require(stalls.count == 1, "\(report.timeline)")
        #expect(stalls[0].stall == .segmentLate)
        #expect(abs((stalls[0].positionStart ?? -1) - 18) < 0.01 && abs(stalls[0].end - stalls[0].start - 3) < 0.1, "\(stalls[0])")
        let muxed = try Self.run(Self.plan(), .replayed(late, otherwise: Self.network(100)))
        #expect(Self.stalls(muxed).isEmpty, "without the audio rendition nothing waits for it")
    }

    @Test("An audio segment that fails after its retries fails primary with a media error naming the audio: another video variant would not help")
    func failingAudioEndsTheSession() throws {
        let failing = FetchTrace(rows: (1...3).map { .init(uri: "https://cdn.example/a/4.aac", attempt: $0, status: 500, bytes: 0, firstByteSeconds: 0, seconds: 0.01) })
        var plan = Self.planWithAudio()
        let primary = plan.fetching?.primary ?? .empty
        plan.fetching?.fallbacks = [PlannedVariant(uri: "low.m3u8", bitsPerSecond: 500_000, segments: primary)]
        let report = try Self.run(plan, .replayed(failing, otherwise: Self.network(100)))
        #expect(report.endReason?.hasPrefix("media error: segment 5 of primary's audio") == true, "\(report.endReason ?? "")")
        #expect(report.variantSwitches == nil)
    }

    @Test("A seek outside the buffer cancels the fetch in flight and fetches from the target's segment")
    func seekRestartsTheBuffer() throws {
        var engine = PlaybackEngine(plan: Self.plan())
        let started = engine.handle(.play(from: nil), at: 0).actions
        guard case .fetch(let first)? = started.first else { Issue.record("no first fetch"); return }
        let second = engine.segmentLoaded(first.id, at: 0.5).actions
        guard case .fetch(let inFlight)? = second.first else { Issue.record("no second fetch: \(second)"); return }
        let actions = engine.handle(.seek(to: 50), at: 1).actions
        #expect(actions.first == .cancel(id: inFlight.id), "\(actions)")
        guard case .fetch(let after)? = actions.last else { Issue.record("no fetch after the seek: \(actions)"); return }
        #expect(after.index == 8 && after.segment.uri.hasSuffix("/8.ts"))
        // Stalled at 50 with nothing buffered there, and still with 4 s (under the 6 s to resume).
        #expect(engine.state == .stalled)
        let loaded = engine.segmentLoaded(after.id, at: 2).actions
        #expect(engine.state == .stalled && engine.bufferStatus?.ahead == 4)
        guard case .fetch(let last)? = loaded.first else { Issue.record("no fetch of the last segment"); return }
        _ = engine.segmentLoaded(last.id, at: 3)
        #expect(engine.state == .playingPrimary)
    }

    @Test("Pausing during a stall ends the stall; the timeline shows the pause, not a stall that lasts through it")
    func pauseEndsAStall() throws {
        let report = try Self.run(Self.plan(), .modelled(Self.network(1)), script: "at 10 rate 0\nat 40 rate 1")
        let pause = try #require(report.timeline.first { $0.kind == .paused })
        #expect(!Self.stalls(report).contains { $0.start < pause.end && $0.end > pause.start + 1e-9 }, "\(report.timeline)")
    }

    @Test("A live rendition is never complete: after a reload the buffer keeps its place and the new segment is fetched")
    func liveReloadExtendsTheBuffer() throws {
        func window(_ first: Int, _ count: Int) -> SegmentList {
            SegmentList((first..<first + count).map { PlannedSegment(uri: "https://cdn.example/live/\($0).ts", duration: 6, bytes: 100_000) },
                startingAt: Double(first) * 6)
        }
        var plan = Engine.plan([], duration: 60, live: true)
        plan.fetching = FetchPlan(primary: window(5, 5), buffer: Self.model)
        var engine = PlaybackEngine(plan: plan)
        // Three target durations from the live edge at 60 s.
        var asked = engine.handle(.play(from: 42), at: 0).actions
        var time = 0.0
        func answerAll() {
            while case .fetch(let fetch)? = asked.first {
                time += 0.01
                asked = engine.segmentLoaded(fetch.id, at: time).actions
            }
        }
        answerAll()
        #expect(engine.bufferStatus?.loaded == 42...60 && engine.bufferStatus?.isComplete == false)
        // The window slides by one segment: segment 10 (60–66 s) is new, 5 is gone.
        var newer = plan
        newer.fetching?.primary = window(6, 5)
        #expect(engine.update(plan: newer, at: time).actions.isEmpty, "18 s are buffered ahead, more than the 12 s target")
        // Once less than 12 s is ahead (the playhead past 48 s), the new segment is asked for.
        guard case .fetch(let fetch)? = engine.advance(to: 7).actions.first else { Issue.record("the new segment was not fetched"); return }
        #expect(fetch.segment.uri.hasSuffix("/live/10.ts"))
        _ = engine.segmentLoaded(fetch.id, at: 7.01)
        #expect(engine.bufferStatus?.loaded == 42...66)
    }

    @Test("A live playhead whose next segments left the window before they were fetched jumps to what the playlist still has, saying how much it missed")
    func fallingBehindTheLiveWindowJumps() throws {
        // A window of three 2 s segments that slides a segment every 2 s; an ad at 8 s for 6 s that
        // resumes where it began, so that primary is 6 s further behind the edge when it comes back.
        func window(at time: Double) -> SegmentList {
            let first = Int(time / 2)
            return SegmentList((first..<first + 3).map { PlannedSegment(uri: "https://cdn.example/live/\($0).ts", duration: 2, bytes: 1000) },
                startingAt: Double(first) * 2)
        }
        let ad = Engine.ad("ad", at: 8, duration: 6, resumeOffset: 0) { event in
            event.assets[0].segments = SegmentList((0..<3).map { PlannedSegment(uri: "https://ads.example/\($0).ts", duration: 2, bytes: 1000) })
        }
        var plan = Engine.plan([ad], duration: 6, live: true)
        plan.fetching = FetchPlan(primary: window(at: 0), buffer: BufferModel(
            family: "test", forwardTarget: .init(6, source: "test"), startupBuffer: .init(2, source: "test"),
            rebufferResume: .init(2, source: "test"), preloadLead: .init(0, source: "test"), retry: Self.model.retry))
        var engine = PlaybackEngine(plan: plan)
        let started = engine.handle(.play(from: 0), at: 0)
        var events = started.events
        var actions = started.actions
        var time = 0.0
        var fetched: [String] = []
        while time < 24 {
            // Every fetch is answered at once; a cancellation needs no answer.
            while !actions.isEmpty {
                let asked = actions
                actions = []
                for case .fetch(let fetch) in asked {
                    fetched.append(fetch.segment.uri)
                    let output = engine.segmentLoaded(fetch.id, at: time)
                    events += output.events
                    actions += output.actions
                }
            }
            time += 0.25
            let output: PlaybackEngine.Output
            if time.truncatingRemainder(dividingBy: 2) == 0 {
                var newer = plan
                newer.fetching?.primary = window(at: time)
                output = engine.update(plan: newer, at: time)
            } else {
                output = engine.advance(to: time)
            }
            events += output.events
            actions += output.actions
        }
        let jump = try #require(events.first { $0.kind == .seeked }, "\(events.map(\.reason))")
        // Primary came back at 14 s to its 8 s, with 8–10 s preloaded during the ad; when that had
        // played, the window began at 14 s: 10–14 s were gone.
        #expect(jump.reason == "fell behind the live window: the 4 s after 10 left the playlist before they were fetched; playback jumps to 14", "\(jump.reason ?? "")")
        #expect(jump.time == 16 && jump.position == 14)
        #expect(!fetched.contains { $0.hasSuffix("/live/5.ts") || $0.hasSuffix("/live/6.ts") }, "\(fetched)")
        #expect(fetched.contains { $0.hasSuffix("/live/7.ts") } && fetched.contains { $0.hasSuffix("/live/12.ts") }, "\(fetched)")
        #expect(engine.state == .playingPrimary, "\(engine.state)")
    }

    /// `plan()` with a lower variant of 0.4 Mbit/s (300 kB a segment) to fall back on.
    static func planWithFallback() -> PlaybackPlan {
        var plan = Self.plan()
        plan.fetching?.fallbacks = [PlannedVariant(
            uri: "https://cdn.example/low/index.m3u8", bitsPerSecond: 400_000,
            segments: SegmentList((0..<10).map { PlannedSegment(uri: "https://cdn.example/low/\($0).ts", duration: 6, bytes: 300_000) }))]
        return plan
    }

    @Test("A primary that stalls on a network slower than its variant switches down to a lower variant that fits, and stalls no more")
    func stallSwitchesDown() throws {
        // 1.33 Mbit/s of primary over 0.8 Mbit/s: without a lower variant it stalls again and again.
        let stuck = try Self.run(Self.plan(), .modelled(Self.network(0.8)))
        #expect(stuck.totals.stalls > 1 && stuck.variantSwitches == nil)
        let switched = try Self.run(Self.planWithFallback(), .modelled(Self.network(0.8)))
        let change = try #require(switched.variantSwitches?.first, "\(switched.events.map(\.reason))")
        #expect(switched.variantSwitches?.count == 1 && change.to == "https://cdn.example/low/index.m3u8")
        #expect(change.reason.hasPrefix("primary stalled at 0.8 Mbit/s measured; switching from the cast's variant to https://cdn.example/low/index.m3u8 (0.4 Mbit/s)"), "\(change.reason)")
        #expect(switched.totals.stalls == 1, "one stall, the one that made it switch: \(Self.stalls(switched))")
        #expect(switched.totals.stallSeconds < stuck.totals.stallSeconds)
        #expect(switched.endReason == "the primary content played to its end")
    }

    @Test("A primary segment that fails after its retries is fetched from a lower variant, and the session plays on")
    func failureSwitchesDown() throws {
        let primary = FetchTrace(rows: (1...3).map { .init(uri: "https://cdn.example/p/3.ts", attempt: $0, status: 500, bytes: 0, firstByteSeconds: 0, seconds: 0.01) })
        let report = try Self.run(Self.planWithFallback(), .replayed(primary, otherwise: Self.network(100)))
        #expect(report.endReason == "the primary content played to its end", "\(report.endReason ?? "")")
        let change = try #require(report.variantSwitches?.first)
        #expect(change.reason.hasPrefix("segment 4 of primary (https://cdn.example/p/3.ts) failed: HTTP 500 after 3 tries; switching"), "\(change.reason)")
        #expect(change.position < 24, "switched before the playhead reached the failed segment at 18–24 s")
        #expect(report.totals.segmentErrors == 3)
    }

    @Test("After a switch down, primary segments whose throughput carries the variant above switch back up, once enough is buffered; a variant that failed is not gone back to")
    func switchesBackUpWhenTheNetworkRecovers() throws {
        var plan = Self.planWithFallback()
        plan.fetching?.variantURI = "https://cdn.example/p/index.m3u8"
        plan.fetching?.bitsPerSecond = 1_333_333
        // The third segment takes 15 s (a congested spell), and the playhead stalls at 12 s; the
        // network is fast again afterwards.
        let spell = FetchTrace(rows: [.init(uri: "https://cdn.example/p/2.ts", bytes: Self.segmentBytes, firstByteSeconds: 0.1, seconds: 15)])
        let report = try Self.run(plan, .replayed(spell, otherwise: Self.network(100)))
        let switches = try #require(report.variantSwitches, "\(report.events.map(\.reason))")
        #expect(switches.map(\.to) == ["https://cdn.example/low/index.m3u8", "https://cdn.example/p/index.m3u8"], "\(switches)")
        #expect(switches.last?.reason.hasPrefix("primary arrived at 100 Mbit/s measured; switching from https://cdn.example/low/index.m3u8 to https://cdn.example/p/index.m3u8 (1.333333 Mbit/s)") == true, "\(switches.last?.reason ?? "")")
        #expect(report.totals.stalls == 1 && report.endReason == "the primary content played to its end")

        // Without the BANDWIDTH of the variant above nothing says it fits: the session stays down.
        plan.fetching?.bitsPerSecond = nil
        #expect(try Self.run(plan, .replayed(spell, otherwise: Self.network(100))).variantSwitches?.count == 1)

        // A variant left because its segment failed is not switched back up to.
        plan.fetching?.bitsPerSecond = 1_333_333
        let failing = FetchTrace(rows: (1...3).map { .init(uri: "https://cdn.example/p/3.ts", attempt: $0, status: 500, bytes: 0, firstByteSeconds: 0, seconds: 0.01) })
        let failed = try Self.run(plan, .replayed(failing, otherwise: Self.network(100)))
        #expect(failed.variantSwitches?.count == 1 && failed.endReason == "the primary content played to its end", "\(failed.variantSwitches ?? [])")
    }

    @Test("The modelled network is deterministic: a run twice gives the same report")
    func modelledRunsAreDeterministic() throws {
        let model = SegmentNetworkModel(roundTripSeconds: 0.06, bitsPerSecond: 2e6)
        #expect(try Self.run(Self.plan(ads: 1), .modelled(model)) == Self.run(Self.plan(ads: 1), .modelled(model)))
    }
}
