import Foundation
import HLS
import JSONDocument
import NumberText
import Sessions

/// A group lab file (GROUP.json, `airlab group simulate`): the content, the group's policy, the link,
/// and each participant with its profile, its own playlist and its faults.
///
/// ```json
/// {"contentID": "movie-42", "policy": {"waitFor": ["playingInterstitial"], "participantLimits": {"playingInterstitial": 8},
///  "pauseSnapsToOriginator": true}, "link": {"delayMs": 40, "jitterMs": 10},
///  "participants": [{"name": "A", "profile": "apple-tv-4k", "playlist": "a.m3u8", "adFree": false,
///                    "stitched": [{"start": 60, "duration": 15, "id": "ad-a"}], "policy": {…}, "script": ["at 40 seek 300"],
///                    "faults": ["stall at 30 for 5", "leave at 90"]}]}
/// ```
/// Decoding is strict: an unknown member, a wrong type or a number out of range is refused with the
/// path of the member and the reason.
public struct GroupScenario: Sendable {
    public struct Participant: Sendable {
        public var name: String
        public var profile: String
        public var playlist: String
        public var adFree: Bool
        /// Which parts of the participant's playlist are its stitched ads: a selector's text
        /// (`uri:*/ads/*`, `daterange:CLASS=ad`, `ranges:300+15`) or explicit ranges; the planner
        /// derives the ranges from the playlist (`HLS.StitchedRanges`).
        public var stitched: StitchedSelector?
        /// Overrides the group's policy for this participant.
        public var policy: GroupPolicy?
        public var script: SenderScript
        public var faults: [GroupFault]
        /// For `lab run --group`: the receiver that plays this participant (HOST:PORT or an mDNS name);
        /// absent, a local receiver of its profile.
        public var receiver: String?

        /// Its playlist as a URL or an absolute path: a relative path is read from the group file's `folder`.
        public func playlist(in folder: URL) -> String {
            playlist.contains("://") || playlist.hasPrefix("/") ? playlist : folder.appendingPathComponent(playlist).path
        }
    }

    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public var contentID: String
    public var policy: GroupPolicy
    public var link: GroupLink
    public var participants: [Participant]

    /// The longest link delay or jitter accepted: a minute.
    static let linkMilliseconds = 60_000.0
    static let maximumParticipants = 64

    public init(parsing data: Data) throws(Failure) {
        guard let document = JSONValue(document: data) else { throw Failure(path: "$", reason: JSONValue.unreadableDocument) }
        let root = try Members(document, path: "$", allowed: ["contentID", "policy", "link", "participants"])
        contentID = try root.requiredString("contentID")
        policy = try root.object("policy").map(Self.policy) ?? .catchUp
        if let link = try root.object("link") {
            let members = try Members(link.value, path: link.path, allowed: ["delayMs", "jitterMs"])
            let delay = try members.number("delayMs", in: 0...Self.linkMilliseconds) ?? 0
            let jitter = try members.number("jitterMs", in: 0...Self.linkMilliseconds) ?? 0
            self.link = GroupLink(delaySeconds: delay / 1000, jitterSeconds: jitter / 1000)
        } else {
            link = .instant
        }
        guard let list = try root.array("participants"), !list.isEmpty else {
            throw Failure(path: "$.participants", reason: "a group needs an array of at least one participant")
        }
        guard list.count <= Self.maximumParticipants else {
            throw Failure(path: "$.participants", reason: "at most \(Self.maximumParticipants) participants, not \(list.count)")
        }
        var participants: [Participant] = []
        for (index, value) in list.enumerated() {
            let participant = try Self.participant(value, path: "$.participants[\(index)]")
            if participants.contains(where: { $0.name == participant.name }) {
                throw Failure(path: "$.participants[\(index)].name", reason: "\"\(participant.name)\" names another participant already")
            }
            participants.append(participant)
        }
        self.participants = participants
    }

    static func participant(_ value: JSONValue, path: String) throws(Failure) -> Participant {
        let members = try Members(value, path: path, allowed: ["name", "profile", "playlist", "adFree", "stitched", "policy", "script", "faults", "receiver"])
        let name = try members.requiredString("name")
        let profile = try members.requiredString("profile")
        let playlist = try members.requiredString("playlist")
        let stitched = try Self.stitched(members, path: path)
        var script = SenderScript()
        if let steps = try members.array("script") {
            var lines: [String] = []
            for (index, step) in steps.enumerated() {
                guard case .string(let line) = step, !line.contains(";") else {
                    throw Failure(path: "\(path).script[\(index)]", reason: "a step is one string such as \"at 40 seek 300\"")
                }
                lines.append(line)
            }
            do throws(SenderScript.SyntaxError) {
                script = try SenderScript(parsing: lines.joined(separator: "\n"))
            } catch {
                throw Failure(path: "\(path).script", reason: error.description)
            }
        }
        var faults: [GroupFault] = []
        for (index, fault) in (try members.array("faults") ?? []).enumerated() {
            faults.append(try Self.fault(fault, path: "\(path).faults[\(index)]"))
        }
        return Participant(
            name: name, profile: profile, playlist: playlist, adFree: try members.bool("adFree") ?? false, stitched: stitched,
            policy: try members.object("policy").map(policy), script: script, faults: faults, receiver: try members.string("receiver"))
    }

    /// `stall at T for D`, `leave at T`.
    static func fault(_ value: JSONValue, path: String) throws(Failure) -> GroupFault {
        let usage = "a fault reads \"stall at SECONDS for SECONDS\" or \"leave at SECONDS\""
        guard case .string(let text) = value else { throw Failure(path: path, reason: usage) }
        let words = text.split(separator: " ").map(String.init)
        func seconds(_ word: String) throws(Failure) -> Double {
            guard let value = Double(word), NumericRange.timeline.contains(value) else {
                throw Failure(path: path, reason: "'\(word)' is not a number of seconds within \(NumericRange.timeline)")
            }
            return value
        }
        switch (words.first, words.count) {
        case ("stall", 5) where words[1] == "at" && words[3] == "for":
            let duration = try seconds(words[4])
            guard duration > 0 else { throw Failure(path: path, reason: "a stall lasts more than 0 s") }
            return .stall(at: try seconds(words[2]), seconds: duration)
        case ("leave", 3) where words[1] == "at":
            return .leave(at: try seconds(words[2]))
        default:
            throw Failure(path: path, reason: "\"\(text)\": \(usage)")
        }
    }

    static func policy(_ object: (value: JSONValue, path: String)) throws(Failure) -> GroupPolicy {
        let members = try Members(object.value, path: object.path, allowed: ["waitFor", "participantLimits", "pauseSnapsToOriginator"])
        var policy = GroupPolicy()
        for (index, reason) in (try members.array("waitFor") ?? []).enumerated() {
            policy.waitFor.insert(try Self.reason(reason, path: "\(object.path).waitFor[\(index)]"))
        }
        if let limits = try members.object("participantLimits") {
            guard case .object(let entries) = limits.value else { throw Failure(path: limits.path, reason: "expected an object") }
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                let path = "\(limits.path).\(key)"
                let reason = try Self.reason(.string(key), path: path)
                guard case .number(let limit) = value, limit.rounded() == limit, limit >= 1, limit <= 1_000_000 else {
                    throw Failure(path: path, reason: "expected a whole number of participants from 1 to 1000000, found \(value.description)")
                }
                policy.participantLimits[reason] = Int(limit)
            }
        }
        policy.pauseSnapsToOriginator = try members.bool("pauseSnapsToOriginator") ?? false
        return policy
    }

    static func reason(_ value: JSONValue, path: String) throws(Failure) -> SuspensionReason {
        guard case .string(let text) = value, let reason = SuspensionReason(rawValue: text) else {
            throw Failure(path: path, reason: "\(value.description) is not a suspension reason; use \(SuspensionReason.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return reason
    }

    /// `stitched`: a selector's text, or explicit ranges `[{"start", "duration", "id"}]` in item seconds.
    private static func stitched(_ members: Members, path: String) throws(Failure) -> StitchedSelector? {
        guard let value = members.members["stitched"] else { return nil }
        if case .string(let text) = value {
            do throws(StitchedSelector.SyntaxError) {
                return try StitchedSelector(argument: text)
            } catch {
                throw Failure(path: "\(path).stitched", reason: "'\(text)' \(error.reason)")
            }
        }
        guard let ranges = try members.array("stitched") else { return nil }
        guard ranges.count <= StitchedSelector.maximumDeclaredRanges else {
            throw Failure(path: "\(path).stitched", reason: "at most \(StitchedSelector.maximumDeclaredRanges) ranges, not \(ranges.count)")
        }
        var declared: [StitchedSelector.DeclaredRange] = []
        for (index, range) in ranges.enumerated() {
            let itemPath = "\(path).stitched[\(index)]"
            let item = try Members(range, path: itemPath, allowed: ["start", "duration", "id"])
            func exact(_ member: String) throws(Failure) -> ExactSeconds {
                let seconds = try item.requiredNumber(member, in: 0...NumericRange.maximumSeconds)
                // The shortest decimal that reads back as the number, read as EXTINF is read.
                guard let exact = ExactSeconds(decimal: seconds.plainText) else {
                    throw Failure(path: "\(itemPath).\(member)", reason: "\(seconds.plainText) is not a decimal number of seconds")
                }
                return exact
            }
            let start = try exact("start")
            let duration = try exact("duration")
            guard duration > .zero else { throw Failure(path: "\(itemPath).duration", reason: "a stitched ad lasts more than 0 s") }
            declared.append(.init(id: try item.string("id"), start: start, duration: duration))
        }
        return .explicit(declared)
    }

    /// An object's members, read strictly.
    struct Members {
        let members: [String: JSONValue]
        let path: String

        init(_ value: JSONValue, path: String, allowed: Set<String>) throws(Failure) {
            guard case .object(let members) = value else { throw Failure(path: path, reason: "expected an object") }
            if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw Failure(path: "\(path).\(unknown)", reason: "is not a member here; known: \(allowed.sorted().joined(separator: ", "))")
            }
            self.members = members
            self.path = path
        }

        func missing(_ member: String) -> Failure { Failure(path: "\(path).\(member)", reason: "is required") }

        func requiredString(_ member: String) throws(Failure) -> String {
            guard let text = try string(member) else { throw missing(member) }
            return text
        }

        func requiredNumber(_ member: String, in range: ClosedRange<Double>) throws(Failure) -> Double {
            guard let number = try number(member, in: range) else { throw missing(member) }
            return number
        }

        func string(_ member: String) throws(Failure) -> String? {
            guard let value = members[member] else { return nil }
            guard case .string(let text) = value, !text.isEmpty else {
                throw Failure(path: "\(path).\(member)", reason: "expected a non-empty string, found \(value.description)")
            }
            return text
        }

        func bool(_ member: String) throws(Failure) -> Bool? {
            guard let value = members[member] else { return nil }
            guard case .bool(let flag) = value else { throw Failure(path: "\(path).\(member)", reason: "expected true or false, found \(value.description)") }
            return flag
        }

        func number(_ member: String, in range: ClosedRange<Double>) throws(Failure) -> Double? {
            guard let value = members[member] else { return nil }
            guard case .number(let number) = value, range.contains(number) else {
                throw Failure(path: "\(path).\(member)", reason: "expected a number from \(range.lowerBound.plainText) to \(range.upperBound.plainText), found \(value.description)")
            }
            return number
        }

        func array(_ member: String) throws(Failure) -> [JSONValue]? {
            guard let value = members[member] else { return nil }
            guard case .array(let items) = value else { throw Failure(path: "\(path).\(member)", reason: "expected an array, found \(value.description)") }
            return items
        }

        func object(_ member: String) throws(Failure) -> (value: JSONValue, path: String)? {
            guard let value = members[member] else { return nil }
            guard case .object = value else { throw Failure(path: "\(path).\(member)", reason: "expected an object, found \(value.description)") }
            return (value, "\(path).\(member)")
        }
    }
}
