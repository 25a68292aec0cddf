import MediaValues
import Profiles

/// The `decoder-reinit-black` quirk as the planner plays it: at a switch where one side is encrypted
/// and the other clear, or where the video codec changes, the device releases its video decoder and
/// builds another, and the picture stays black meanwhile (google/ExoPlayer#8568; `Quirk`).
///
/// The black goes on the switch's video path, so the engine plays it on its clock as part of the
/// switch, names it as a cause of the transition and reports it with a `quirk-fired` event where the
/// switch starts. One decoder is re-created per switch:
/// where the profile also prices a codec change (`video_codec`), the quirk's black stands in for it
/// rather than adding to it.
struct DecoderReinitialisation {
    let quirk: DeclaredQuirk
    let seed: UInt64

    /// What plays on one side of a switch.
    struct Side {
        var media: MediaParameters
        var isEncrypted: Bool
    }

    /// Adds the black to `transition` (named `name`) from `previous` to `next` when the switch meets
    /// the quirk's conditions; leaves it as it is when it does not.
    func apply(to transition: inout Transition, _ name: String, from previous: Side, to next: Side) {
        guard next.media.video != nil, let why = Self.reason(from: previous, to: next),
            let black = quirk.blackCost("\(name)/\(quirk.kind.rawValue)", seed: seed, detail: why)
        else { return }
        transition.video.removeAll { $0.cause == MediaDimension.videoCodec.rawValue }
        transition.video.append(black)
    }

    /// Why the switch re-creates the decoder, or nil when it does not.
    static func reason(from previous: Side, to next: Side) -> String? {
        if previous.isEncrypted != next.isEncrypted {
            return previous.isEncrypted ? "encrypted to clear" : "clear to encrypted"
        }
        if let before = previous.media.video?.codecName, let after = next.media.video?.codecName, before != after {
            return "\(before) to \(after)"
        }
        return nil
    }
}
