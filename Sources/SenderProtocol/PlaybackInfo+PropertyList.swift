import Foundation

/// The XML property list senders parse, with the buffer flags AVPlayerItem derives from the two it keeps.
///
/// Senders poll it several times a second, on every receiver: its entries are listed once, in the
/// sorted order Apple's writer gives a dictionary, and written straight into the document's bytes
/// (`XMLPropertyListWriter`), without building a value or sorting keys per answer. `Encodable` (JSON)
/// takes the same entries as a value.
extension PlaybackInfo {
    /// One entry's value.
    enum Entry {
        case real(Double)
        case integer(Int64)
        case boolean(Bool)
        case string(String)
        /// `loadedTimeRanges` and `seekableTimeRanges`: one range as AVPlayerItem gives them, or none.
        case timeRanges(ClosedRange<Double>?)
        /// `durationCMTime` and `positionCMTime`: seconds as the CMTime dictionary real receivers add.
        case mediaTime(Double)
    }

    /// Takes the entries in the order `entries(into:)` gives them.
    protocol EntrySink {
        mutating func put(_ key: CodingKeys, _ entry: Entry)
    }

    /// Every entry, in ascending order of key.
    func entries(into sink: inout some EntrySink) {
        if let duration {
            sink.put(.duration, .real(duration))
            sink.put(.durationCMTime, .mediaTime(duration))
        }
        if let groupSync {
            sink.put(.groupClockBound, .real(groupSync.clockBound))
            sink.put(.groupCorrections, .integer(Int64(groupSync.corrections)))
        }
        if let groupID { sink.put(.groupID, .string(groupID)) }
        if let groupSync {
            if let error = groupSync.error { sink.put(.groupSyncError, .real(error)) }
            sink.put(.groupTime, .real(groupSync.groupTime))
        }
        sink.put(.loadedTimeRanges, .timeRanges(loaded))
        if let presentation {
            sink.put(.pictureInPictureActive, .boolean(presentation.pictureInPictureActive))
            // As AVKit's isPictureInPicturePossible: whether it could start now, so false where unsupported.
            sink.put(.pictureInPicturePossible, .boolean(presentation.pictureInPictureRefusal == nil))
            sink.put(.pictureInPictureSupported, .boolean(presentation.supportsPictureInPicture))
        }
        sink.put(.playbackBufferEmpty, .boolean(bufferEmpty))
        sink.put(.playbackBufferFull, .boolean(!bufferEmpty && readyToPlay))
        sink.put(.playbackLikelyToKeepUp, .boolean(likelyToKeepUp))
        sink.put(.position, .real(position))
        sink.put(.positionCMTime, .mediaTime(position))
        if let presentation { sink.put(.presentationMode, .string(presentation.mode.rawValue)) }
        sink.put(.rate, .real(rate))
        sink.put(.readyToPlay, .boolean(readyToPlay))
        if let reason = status.waitingReason { sink.put(.reasonForWaitingToPlay, .string(reason.rawValue)) }
        if presentation != nil { sink.put(.requiresLinearPlayback, .boolean(requiresLinearPlayback)) }
        sink.put(.seekableTimeRanges, .timeRanges(seekable))
        // `duration` and `timeControlStatus` are present exactly while a session plays.
        if duration != nil { sink.put(.timeControlStatus, .string(status.timeControl.rawValue)) }
    }

    /// The document senders read.
    public func propertyList() -> Data {
        var sink = DocumentSink()
        sink.writer.open(.dictionary, depth: 0)
        entries(into: &sink)
        sink.writer.close(.dictionary, depth: 0)
        return sink.writer.document()
    }

    /// The same entries as a value, for `Encodable`.
    var propertyListValue: XMLPropertyList {
        var sink = ValueSink()
        entries(into: &sink)
        return .dictionary(sink.dictionary)
    }

    private struct DocumentSink: EntrySink {
        var writer = XMLPropertyListWriter()

        mutating func put(_ key: CodingKeys, _ entry: Entry) {
            writer.key(key.stringValue, depth: 1)
            switch entry {
            case .real(let value): writer.real(value, depth: 1)
            case .integer(let value): writer.integer(value, depth: 1)
            case .boolean(let value): writer.boolean(value, depth: 1)
            case .string(let value): writer.string(value, depth: 1)
            case .timeRanges(nil): writer.empty(.array, depth: 1)
            case .timeRanges(let range?):
                // The range's dictionary, its keys sorted as `ValueSink.timeRange` has them.
                writer.open(.array, depth: 1)
                writer.open(.dictionary, depth: 2)
                writer.key("duration", depth: 3)
                writer.real(range.upperBound - range.lowerBound, depth: 3)
                writer.key("start", depth: 3)
                writer.real(range.lowerBound, depth: 3)
                writer.close(.dictionary, depth: 2)
                writer.close(.array, depth: 1)
            case .mediaTime(let seconds):
                // Keys sorted as `ValueSink.mediaTime` has them.
                let time = MediaTime(seconds: seconds) ?? MediaTime(value: 0, timescale: 0, flags: 0)
                writer.open(.dictionary, depth: 1)
                writer.key("epoch", depth: 2)
                writer.integer(time.epoch, depth: 2)
                writer.key("flags", depth: 2)
                writer.integer(Int64(time.flags), depth: 2)
                writer.key("timescale", depth: 2)
                writer.integer(Int64(time.timescale), depth: 2)
                writer.key("value", depth: 2)
                writer.integer(time.value, depth: 2)
                writer.close(.dictionary, depth: 1)
            }
        }
    }

    private struct ValueSink: EntrySink {
        var dictionary: [String: XMLPropertyList] = [:]

        mutating func put(_ key: CodingKeys, _ entry: Entry) {
            let value: XMLPropertyList = switch entry {
            case .real(let value): .real(value)
            case .integer(let value): .integer(value)
            case .boolean(let value): .boolean(value)
            case .string(let value): .string(value)
            case .timeRanges(let range): .array(range.map { [Self.timeRange($0)] } ?? [])
            case .mediaTime(let seconds): Self.mediaTime(seconds)
            }
            dictionary[key.stringValue] = value
        }

        static func mediaTime(_ seconds: Double) -> XMLPropertyList {
            let time = MediaTime(seconds: seconds) ?? MediaTime(value: 0, timescale: 0, flags: 0)
            return .dictionary([
                "epoch": .integer(time.epoch), "flags": .integer(Int64(time.flags)), "timescale": .integer(Int64(time.timescale)),
                "value": .integer(time.value),
            ])
        }

        static func timeRange(_ range: ClosedRange<Double>) -> XMLPropertyList {
            .dictionary(["start": .real(range.lowerBound), "duration": .real(range.upperBound - range.lowerBound)])
        }
    }
}
