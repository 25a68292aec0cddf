import CFFmpeg
import Glibc
import MediaValues

/// Turns an FFmpeg error code into the `MediaError` a person can act on.
///
/// FFmpeg reads only from memory here, so its errors are about the bytes (unknown, truncated,
/// damaged) or the deadline; fetching failures are the loader's and named by it.
enum FFmpegFailure {
    static func mediaError(_ code: Int32, input: String, deadline: ProbeDeadline) -> MediaError {
        MediaError(input: input, reason: reason(code, deadline: deadline))
    }

    static func reason(_ code: Int32, deadline: ProbeDeadline) -> MediaError.Reason {
        // After an interrupt FFmpeg may report EIO or EOF rather than AVERROR_EXIT; the clock decides.
        if deadline.hasPassed || code == CFFmpeg_AVERROR_EXIT() || code == CFFmpeg_AVERROR(ETIMEDOUT) {
            return .timedOut(seconds: deadline.seconds)
        }
        switch code {
        case CFFmpeg_AVERROR_INVALIDDATA(): return .notMedia(detail: "invalid data: an unknown format, or a truncated or damaged file")
        case CFFmpeg_AVERROR_EOF(): return .noUsableStreams
        case CFFmpeg_AVERROR(ENOMEM):
            // Almost always the cap (FFmpegMemory) refusing a table that the file's counts asked for.
            return .ffmpeg(
                code: code,
                message: "the file declares tables larger than FFmpeg may allocate at once "
                    + "(\(FFmpegMemory.largestAllocation >> 20) MiB): a damaged or hostile file")
        default: return .ffmpeg(code: code, message: message(code))
        }
    }

    /// FFmpeg's sentence for `code` (what `av_err2str` would give, which Swift cannot call).
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "unknown error" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
