import NumberText

/// A command from the sender, as the engine understands it.
///
/// Its text (`description`) is the one way a command is written: a refusal names it, a report stores
/// it, `/events` carries it, and a sender script (`--do "at 3 seek 40"`) is read with `init(text:)`.
public enum PlaybackCommand: Sendable, Hashable, CustomStringConvertible {
    /// Start playback at a primary position (nil: the start of the content): the cast itself.
    case play(from: Double?)
    /// Seek to a primary position.
    case seek(to: Double)
    /// 0 pauses; 1 plays; other rates as given.
    case setRate(Double)
    case stop
    /// The sender asks for a presentation mode (`setProperty?presentationMode`, script `pip on|off`).
    case setPresentationMode(PresentationMode)
    /// Whether picture in picture can start now: false while another app holds it (a fault, or the
    /// script's `pip impossible`).
    case setPictureInPicturePossible(Bool)
    /// Where forward playback ends (`setProperty?forwardEndTime`, AVPlayerItem's forwardPlaybackEndTime):
    /// a primary position, or nil for the content's end.
    case setForwardEndTime(Double?)
    /// What the player does when the item ends (`setProperty?actionAtItemEnd`, AVPlayer's).
    case setActionAtItemEnd(ItemEndAction)

    /// `cast`, `cast from 40`, `seek 40`, `rate 2`, `stop`, `pip on|off`, `presentation external`,
    /// `pip possible|impossible`, `end at 40|none`, `item end advance|pause|none`.
    public var description: String {
        switch self {
        case .play(let start): start.map { "cast from \($0.plainText)" } ?? "cast"
        case .seek(let target): "seek \(target.plainText)"
        case .setRate(let rate): "rate \(rate.plainText)"
        case .stop: "stop"
        case .setPresentationMode(.pictureInPicture): "pip on"
        case .setPresentationMode(.standard): "pip off"
        case .setPresentationMode(let mode): "presentation \(mode.rawValue)"
        case .setPictureInPicturePossible(let possible): possible ? "pip possible" : "pip impossible"
        case .setForwardEndTime(let end): "end at " + (end.map(\.plainText) ?? "none")
        case .setActionAtItemEnd(let action): "item end \(action.name)"
        }
    }

    /// Why a text is not a command.
    public struct TextError: Error, Sendable, Hashable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// Reads a command's text: every form `description` writes, and `pause` (rate 0) and `play`
    /// (rate 1), the words a person uses.
    public init(text: String) throws(TextError) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        func number(_ verb: String) throws(TextError) -> Double {
            guard words.count == 2, let value = Double(words[1]), value.isFinite else {
                throw TextError(reason: "\(verb) needs one number, such as '\(verb) 2'")
            }
            return value
        }
        func start(_ word: String) throws(TextError) -> Double {
            guard let value = Double(word), value.isFinite else { throw TextError(reason: "cast from needs a number, not '\(word)'") }
            return value
        }
        switch (words.first ?? "", words.count) {
        case ("seek", _): self = .seek(to: try number("seek"))
        case ("rate", _): self = .setRate(try number("rate"))
        case ("pause", 1): self = .setRate(0)
        case ("play", 1): self = .setRate(1)
        case ("stop", 1): self = .stop
        case ("cast", 1): self = .play(from: nil)
        case ("cast", 3) where words[1] == "from": self = .play(from: try start(words[2]))
        case ("pip", 2) where words[1] == "on": self = .setPresentationMode(.pictureInPicture)
        case ("pip", 2) where words[1] == "off": self = .setPresentationMode(.standard)
        case ("pip", 2) where words[1] == "possible": self = .setPictureInPicturePossible(true)
        case ("pip", 2) where words[1] == "impossible": self = .setPictureInPicturePossible(false)
        case ("pip", _): throw TextError(reason: "pip needs on, off, impossible or possible, such as 'pip on'")
        case ("end", 3) where words[1] == "at":
            self = .setForwardEndTime(words[2] == "none" ? nil : try Self.position(words[2], "end at"))
        case ("item", 3) where words[1] == "end":
            guard let action = ItemEndAction(name: words[2]) else { throw TextError(reason: "item end needs advance, pause or none, not '\(words[2])'") }
            self = .setActionAtItemEnd(action)
        case ("presentation", 2):
            guard let mode = PresentationMode(wireName: words[1]) else {
                throw TextError(reason: "'\(words[1])' is not a presentation mode")
            }
            self = .setPresentationMode(mode)
        default:
            throw TextError(reason: "unknown command; use seek S, rate R, pause, play, stop or pip on|off")
        }
    }

    private static func position(_ word: String, _ verb: String) throws(TextError) -> Double {
        guard let value = Double(word), value.isFinite, value >= 0 else { throw TextError(reason: "\(verb) needs a position in seconds or none, not '\(word)'") }
        return value
    }
}

/// What the player does when its item plays to the end: AVPlayer's `actionAtItemEnd`, which an AirPlay 2
/// sender sets with `setProperty` (0, 1, 2 on the wire).
public enum ItemEndAction: Int, Sendable, Hashable, CaseIterable {
    /// The session ends: what airlab's receivers always did, and pyatv asks for.
    case advance = 0
    /// The player pauses at the end; the session stays until the sender stops or seeks back.
    case pause = 1
    /// The player does nothing: the item stays at its end. airlab holds it there as for `pause`.
    case none = 2

    public var name: String {
        switch self {
        case .advance: "advance"
        case .pause: "pause"
        case .none: "none"
        }
    }

    public init?(name: String) {
        guard let action = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = action
    }
}
