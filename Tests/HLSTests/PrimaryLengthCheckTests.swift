import Testing
@testable import HLS

@Suite("The equal-length rule: primary lengths and live breaks across a group")
struct PrimaryLengthCheckTests {
    /// A participant of `programme` seconds of segments with ads of the given lengths spliced in, 10 s segments.
    func participant(programme: [String], ads: [String]) throws -> StitchedRanges {
        var segments: [(String, String)] = []
        for (index, part) in programme.enumerated() {
            segments.append(("p\(index).ts", part))
            if index < ads.count { segments.append(("ads/a\(index).ts", ads[index])) }
        }
        return StitchedRanges(playlist: try stitchedPlaylist(segments), selector: .uri(GlobPattern("ads/*")))
    }

    @Test("Participants with different ads but the same primary length are accepted")
    func differentAdsAccepted() throws {
        let group = try participant(programme: ["600", "600", "600"], ads: ["15", "30"])
        let other = try participant(programme: ["600", "600", "600"], ads: ["30", "60.5"])
        #expect(group.itemLength != other.itemLength)
        let verdict = PrimaryLengthCheck().check(groupPrimaryLength: group.primaryLength, participant: other, participantID: "B")
        #expect(verdict.isAccepted)
        #expect(verdict.diagnostics.isEmpty)
        #expect(verdict.difference == .zero)
    }

    @Test("A participant 2 s longer is refused, naming both lengths and the range nearest the difference")
    func twoSecondMismatch() throws {
        let group = try participant(programme: ["600", "600", "600"], ads: ["15", "30"])
        let other = try participant(programme: ["600", "602", "600"], ads: ["3", "30"])
        let verdict = PrimaryLengthCheck().check(groupPrimaryLength: group.primaryLength, participant: other, participantID: "B")
        #expect(!verdict.isAccepted)
        let diagnostic = try #require(verdict.diagnostics.first)
        #expect(diagnostic.code == .groupPrimaryLengthMismatch)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.contains("primary length of 1802 s"))
        #expect(diagnostic.message.contains("the group's 1800 s"))
        #expect(diagnostic.message.contains("2 s longer"))
        #expect(diagnostic.message.contains("range 'ad-1'"))
        #expect(verdict.explainingRange == "ad-1")
        #expect(verdict.difference == ExactSeconds(wholeSeconds: 2))
    }

    @Test("Without stitched ranges the message says that no range explains it")
    func noRanges() throws {
        let alone = try participant(programme: ["100"], ads: [])
        let verdict = PrimaryLengthCheck().check(groupPrimaryLength: seconds("90"), participant: alone, participantID: "C")
        #expect(verdict.explainingRange == nil)
        #expect(verdict.diagnostics.first?.message.contains("declares no stitched ranges") == true)
        #expect(verdict.diagnostics.first?.message.contains("10 s longer") == true)
    }

    @Test("A difference of exactly one frame is accepted and one nanosecond more is refused")
    func toleranceEdge() throws {
        let frame = ExactSeconds.frame(framesPerSecond: 30)
        #expect(frame.nanoseconds == 33_333_333)
        let check = PrimaryLengthCheck()
        let group = seconds("600")
        let atOneFrame = try participant(programme: ["600.033333333"], ads: ["15"])
        let aboveOneFrame = try participant(programme: ["600.033333334"], ads: ["15"])
        let belowByOneFrame = try participant(programme: ["599.966666667"], ads: ["15"])
        #expect(check.check(groupPrimaryLength: group, participant: atOneFrame, participantID: "B").isAccepted)
        #expect(check.check(groupPrimaryLength: group, participant: belowByOneFrame, participantID: "B").isAccepted)
        #expect(!check.check(groupPrimaryLength: group, participant: aboveOneFrame, participantID: "B").isAccepted)
        let loose = PrimaryLengthCheck(frameDuration: ExactSeconds.frame(framesPerSecond: 25))
        #expect(loose.check(groupPrimaryLength: group, participant: aboveOneFrame, participantID: "B").isAccepted)
    }

    @Test("Live: a break that lasts longer than the group's break is refused, naming the break")
    func liveBreakMismatch() throws {
        let group = try participant(programme: ["60", "60", "60"], ads: ["30", "15"])
        let same = try participant(programme: ["60", "60", "60"], ads: ["30", "15"])
        let longer = try participant(programme: ["60", "60", "60"], ads: ["30", "20"])
        let check = PrimaryLengthCheck()
        #expect(check.checkLiveBreaks(group: group.ranges, participant: same.ranges, participantID: "B").isAccepted)
        let verdict = check.checkLiveBreaks(group: group.ranges, participant: longer.ranges, participantID: "B")
        #expect(!verdict.isAccepted)
        #expect(verdict.diagnostics.codes == ["group.live-break-length-mismatch"])
        let message = try #require(verdict.diagnostics.first?.message)
        #expect(message.contains("Break 2 of participant 'B', 'ad-2', lasts 20 s"))
        #expect(message.contains("lasts 15 s"))
        #expect(verdict.explainingRange == "ad-2")
        let missing = check.checkLiveBreaks(group: group.ranges, participant: Array(same.ranges.prefix(1)), participantID: "B")
        #expect(missing.diagnostics.count == 1)
        #expect(missing.diagnostics.first?.message.contains("(none)") == true)
    }
}

@Suite("Stitched ranges over seeded random playlists")
struct StitchedRangesPropertyTests {
    /// A random playlist: EXTINFs with up to three decimals, some segments under `ads/`.
    func randomPlaylist(_ generator: inout SplitMix64) throws -> MediaPlaylist {
        let count = Int.random(in: 1...200, using: &generator)
        let segments = (0..<count).map { index -> (String, String) in
            let millis = Int.random(in: 1...12_000, using: &generator)
            let isAd = Int.random(in: 0..<4, using: &generator) == 0
            return ("\(isAd ? "ads" : "main")/s\(index).ts", "\(millis / 1000).\(String(millis % 1000 + 1000).dropFirst())")
        }
        return try stitchedPlaylist(segments)
    }

    @Test("Primary length plus the ranges is exactly the item length; ranges are ordered and apart; a bigger difference is refused")
    func invariants() throws {
        let check = PrimaryLengthCheck()
        for seed in UInt64(1)...300 {
            var generator = SplitMix64(seed: seed)
            let playlist = try randomPlaylist(&generator)
            let selector: StitchedSelector
            if Bool.random(using: &generator) {
                selector = .uri(GlobPattern("ads/*"))
            } else {
                let item = playlist.exactDuration.nanoseconds
                selector = .explicit((0..<Int.random(in: 1...6, using: &generator)).map { _ in
                    let start = Int64.random(in: 0...max(item, 1), using: &generator)
                    let length = Int64.random(in: 1...max(item / 4, 1), using: &generator)
                    return .init(start: ExactSeconds(nanoseconds: start), duration: ExactSeconds(nanoseconds: length))
                })
            }
            let stitched = StitchedRanges(playlist: playlist, selector: selector)
            let total = stitched.ranges.reduce(ExactSeconds.zero) { $0 + $1.duration }
            #expect(stitched.primaryLength + total == stitched.itemLength, "seed \(seed)")
            #expect(stitched.itemLength == playlist.exactDuration, "seed \(seed)")
            for (earlier, later) in zip(stitched.ranges, stitched.ranges.dropFirst()) {
                #expect(earlier.end <= later.start, "seed \(seed): \(earlier.id) and \(later.id)")
            }
            #expect(stitched.ranges.allSatisfy { $0.end <= stitched.itemLength && $0.duration > .zero }, "seed \(seed)")

            let offset = ExactSeconds(nanoseconds: check.tolerance.nanoseconds + Int64.random(in: 1...10_000_000_000, using: &generator))
            let group = Bool.random(using: &generator) ? stitched.primaryLength + offset : stitched.primaryLength - offset
            let verdict = check.check(groupPrimaryLength: group, participant: stitched, participantID: "P")
            #expect(!verdict.isAccepted, "seed \(seed): a difference of \(offset) s was accepted")
            #expect(check.check(groupPrimaryLength: stitched.primaryLength, participant: stitched, participantID: "P").isAccepted, "seed \(seed)")
        }
    }
}
