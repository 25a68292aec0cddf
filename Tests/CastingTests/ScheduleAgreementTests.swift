import Casting
import Foundation
import HLS
import Profiles
import Sessions
import TestSupport
import Testing

/// An uncommanded simulation plays exactly what the schedule lists: the same primary ranges and the
/// same breaks in the same order, for generated playlists of every shape the schedule's rules cover.
@Suite("The engine plays the schedule", .ownThread)
struct ScheduleAgreementTests {
    /// One piece of a playout, compared across the schedule and a session's timeline.
    enum Piece: Equatable, CustomStringConvertible {
        case primary(start: Double, end: Double)
        case interstitial(String)

        var description: String {
            switch self {
            case .primary(let start, let end): "P\(start)-\(end)"
            case .interstitial(let id): "I:\(id)"
            }
        }

        /// Equal kinds and event IDs; primary ranges within a millisecond.
        func matches(_ other: Piece) -> Bool {
            switch (self, other) {
            case (.primary(let a, let b), .primary(let c, let d)): abs(a - c) < 0.001 && abs(b - d) < 0.001
            default: self == other
            }
        }
    }

    /// Drops what plays nothing and joins primary pieces that meet: an empty asset list is a zero-length
    /// entry in the schedule and no entry at all in a session.
    static func normalised(_ pieces: [Piece]) -> [Piece] {
        var result: [Piece] = []
        for piece in pieces {
            guard case .primary(let start, let end) = piece else {
                result.append(piece)
                continue
            }
            guard end - start > 0.001 else { continue }
            if case .primary(let previousStart, let previousEnd)? = result.last, abs(previousEnd - start) < 0.001 {
                result[result.count - 1] = .primary(start: previousStart, end: end)
            } else {
                result.append(piece)
            }
        }
        return result
    }

    static func pieces(_ schedule: InterstitialSchedule) -> [Piece] {
        normalised(schedule.entries.compactMap { entry in
            switch entry.kind {
            case .primary: .primary(start: entry.start, end: entry.end)
            case .interstitial(let id): entry.end - entry.start > 0.000_5 ? .interstitial(id) : nil
            }
        })
    }

    static func pieces(_ report: SessionReport) -> [Piece] {
        normalised(report.timeline.compactMap { entry in
            switch entry.kind {
            case .primary: .primary(start: entry.positionStart ?? .nan, end: entry.positionEnd ?? .nan)
            case .interstitial: .interstitial(entry.eventID ?? "?")
            default: nil
            }
        })
    }

    /// A generated VOD playlist with its asset playlists, written into a scratch folder.
    struct GeneratedCast {
        var playlist: String
        var startPosition: Double?
        var description: String
    }

    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    static func date(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let whole = seconds.rounded(.down)
        // Ten-thousandths of a second, so that events 0.4 ms apart can be written.
        let fraction = Int(((seconds - whole) * 10_000).rounded())
        let base = formatter.string(from: epoch.addingTimeInterval(whole)).dropLast()
        return "\(base).\(String(format: "%04d", fraction))Z"
    }

    static func generate(_ generator: inout SeededGenerator, in scratch: Scratch, number: Int) throws -> GeneratedCast {
        let segmentLengths = (0..<Int.random(in: 2...10, using: &generator)).map { _ in Double(Int.random(in: 4...12, using: &generator)) / 2 }
        let duration = segmentLengths.reduce(0, +)
        var tags: [String] = []
        var previousPosition: Double?
        for index in 0..<Int.random(in: 0...7, using: &generator) {
            let id = "ad-\(index)"
            var attributes = [#"ID="\#(id)""#, #"CLASS="com.apple.hls.interstitial""#]
            var cue: [String] = []
            let kind = Int.random(in: 0..<10, using: &generator)
            var position: Double
            if kind == 0 {
                cue.append("PRE")
                position = 0
            } else if kind == 1 {
                cue.append("POST")
                position = 0
            } else if let previous = previousPosition, Bool.random(using: &generator) {
                // Near-coincident with the one before: the same date, or 0.4 ms after it.
                position = previous + (Bool.random(using: &generator) ? 0.000_4 : 0)
            } else {
                position = Double(Int.random(in: 0...Int(duration * 2), using: &generator)) / 2
            }
            if kind > 1 { previousPosition = position }
            if Int.random(in: 0..<5, using: &generator) == 0 { cue.append("ONCE") }
            attributes.append(#"START-DATE="\#(date(position))""#)
            if !cue.isEmpty { attributes.append(#"CUE="\#(cue.joined(separator: ","))""#) }
            let adLength = Double(Int.random(in: 2...16, using: &generator)) / 2
            switch Int.random(in: 0..<12, using: &generator) {
            case 0:
                attributes.append(#"X-ASSET-URI="ads/missing-\#(number).m3u8""#)
            case 1:
                attributes.append(#"X-ASSET-LIST="ads/empty.json""#)
            default:
                let name = "ads/\(Int(adLength * 2)).m3u8"
                attributes.append(#"X-ASSET-URI="\#(name)""#)
                attributes.append("DURATION=\(adLength)")
            }
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1: attributes.append("X-RESUME-OFFSET=0")
            case 2: attributes.append("X-RESUME-OFFSET=-\(Int.random(in: 1...8, using: &generator))")
            case 3: attributes.append("X-RESUME-OFFSET=\(Double(Int.random(in: 1...30, using: &generator)) / 2)")
            default: break
            }
            let snaps = ["", "OUT", "IN", "OUT,IN"].randomElement(using: &generator)!
            if !snaps.isEmpty { attributes.append(#"X-SNAP="\#(snaps)""#) }
            if Int.random(in: 0..<5, using: &generator) == 0 {
                attributes.append("X-PLAYOUT-LIMIT=\(Double(Int.random(in: 1...12, using: &generator)) / 2)")
            }
            tags.append("#EXT-X-DATERANGE:" + attributes.joined(separator: ","))
        }
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-PROGRAM-DATE-TIME:\(date(0))"]
        lines += tags
        for (index, length) in segmentLengths.enumerated() {
            lines += ["#EXTINF:\(length),", "s\(index).ts"]
        }
        lines.append("#EXT-X-ENDLIST")
        let text = lines.joined(separator: "\n") + "\n"
        let name = "show-\(number).m3u8"
        try scratch.write(name, text)
        let start: Double? = Int.random(in: 0..<3, using: &generator) == 0 ? Double(Int.random(in: 0...Int(duration), using: &generator)) : nil
        return GeneratedCast(playlist: scratch.url.appendingPathComponent(name).path, startPosition: start, description: text)
    }

    @Test("An uncommanded simulation plays exactly the primary ranges and breaks the schedule lists, in order")
    func simulationPlaysTheSchedule() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for halves in 4...16 {
            try scratch.write("ads/\(halves).m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:8\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:\(Double(halves) / 2),\na.ts\n#EXT-X-ENDLIST\n")
        }
        try scratch.write("ads/empty.json", #"{"ASSETS": []}"#)
        let planner = CastPlanner(prober: TableProber { _, _ in media(codec: "h264") })
        let profile = try ProfileCatalog().profile("apple-tv-4k")
        var generator = SeededGenerator(seed: 1011)
        var compared = 0
        var podsOfSeveral = 0
        for number in 0..<150 {
            let generated = try Self.generate(&generator, in: scratch, number: number)
            let prepared = try await planner.prepare(CastRequest(playlist: generated.playlist, startPosition: generated.startPosition))
            let cast = try await planner.plan(prepared, profile: profile, seed: 7)
            let report = await CastSimulation(planner: planner).play(cast, prepared: prepared)
            let expected = Self.pieces(cast.schedule)
            let played = Self.pieces(report)
            let agrees = expected.count == played.count && zip(expected, played).allSatisfy { $0.matches($1) }
            let start = generated.startPosition.map { String($0) } ?? "-"
            let context = "schedule \(expected)\nplayed   \(played)\nstart \(start)\n\(generated.description)"
            #expect(agrees, Comment(rawValue: context))
            #expect(cast.plan.pods.map { $0.members.map(\.eventID) } == cast.schedule.pods.map(\.eventIDs))
            compared += 1
            podsOfSeveral += cast.schedule.pods.filter { $0.members.count > 1 }.count
            if !agrees { break }
        }
        #expect(compared == 150)
        // The generator reaches the cases the rules are about.
        #expect(podsOfSeveral > 20)
    }
}
