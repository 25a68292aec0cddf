/// How a session's video is shown on the receiver (docs/simulate.md, "Picture in picture and SDK ads").
///
/// HLS interstitials play the same in every mode; the mode matters to ads an SDK on the sender side
/// starts itself, which may not start while picture in picture is active (IMA's rule).
public enum PresentationMode: String, Sendable, Hashable, Codable, CaseIterable {
    case standard
    case pictureInPicture
    /// Shown on another screen (an external display, or passed on over AirPlay).
    case external

    /// Reads the wire's spellings: the case names, and `pip` for picture in picture.
    public init?(wireName name: String) {
        switch name {
        case "pip": self = .pictureInPicture
        default: self.init(rawValue: name)
        }
    }
}

/// What the receiver can do about picture in picture, and what it is doing.
///
/// Mirrors AVPictureInPictureController's three observations: supported (the device has it: tvOS 14
/// and later, so the Apple TV profiles; assumed absent on third-party TVs), possible (false while
/// another app holds picture in picture) and active (the mode).
public struct Presentation: Sendable, Hashable {
    public var mode: PresentationMode = .standard
    public var supportsPictureInPicture: Bool
    public var pictureInPicturePossible = true

    public init(supportsPictureInPicture: Bool) {
        self.supportsPictureInPicture = supportsPictureInPicture
    }

    public var pictureInPictureActive: Bool { mode == .pictureInPicture }

    /// Why picture in picture cannot start now, as the code the sender protocol answers with (409).
    public enum Refusal: String, Sendable, Hashable {
        case notSupported = "pip-not-supported"
        case notPossible = "pip-not-possible"
    }

    /// The refusal of a start of picture in picture, or nil when it may start.
    public var pictureInPictureRefusal: Refusal? {
        if !supportsPictureInPicture { return .notSupported }
        if !pictureInPicturePossible { return .notPossible }
        return nil
    }
}
