import CFFmpeg
import Glibc

/// Reads bytes of a file or http(s) resource through FFmpeg's avio.
///
/// Playlists and init sections are fetched the same way segments are opened, so files and URLs share
/// one mechanism, one deadline and one set of error messages.
enum ByteFetch {
    /// What to do when the resource is longer than the limit.
    enum Overflow {
        case fail
        /// Keep the first `limit` bytes: enough to probe a segment.
        case truncate
    }

    static func read(
        _ location: MediaLocation, range: ByteRangeRequest? = nil, limit: Int, overflow: Overflow,
        deadline: ProbeDeadline
    ) throws(MediaError) -> [UInt8] {
        FFmpegLogging.silence()
        let input = location.description
        var options: OpaquePointer?
        av_dict_set(&options, "rw_timeout", deadline.readWriteTimeoutMicroseconds, 0)
        av_dict_set(&options, "protocol_whitelist", FFmpegDemuxer.protocolWhitelist, 0)
        defer { av_dict_free(&options) }

        var context: UnsafeMutablePointer<AVIOContext>?
        var callback = deadline.interruptCallback
        let opened = withExtendedLifetime(deadline) {
            avio_open2(&context, location.ffmpegURL, AVIO_FLAG_READ, &callback, &options)
        }
        guard opened >= 0, let context else {
            throw FFmpegFailure.mediaError(opened, input: input, deadline: deadline)
        }
        defer { avio_close(context) }

        if let offset = range?.offset, offset > 0 {
            let sought = withExtendedLifetime(deadline) { avio_seek(context, Int64(offset), SEEK_SET) }
            guard sought >= 0 else {
                throw FFmpegFailure.mediaError(Int32(truncatingIfNeeded: sought), input: input, deadline: deadline)
            }
        }
        let wanted = range.map { min($0.length, limit) } ?? limit
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < wanted {
            let count = withExtendedLifetime(deadline) {
                avio_read(context, &chunk, Int32(min(chunk.count, wanted - bytes.count)))
            }
            if count == CFFmpeg_AVERROR_EOF() || count == 0 { break }
            guard count > 0 else { throw FFmpegFailure.mediaError(count, input: input, deadline: deadline) }
            bytes += chunk.prefix(Int(count))
        }
        if range == nil, bytes.count >= limit, overflow == .fail, avio_feof(context) == 0 {
            throw MediaError(input: input, reason: .tooLarge(limit: limit))
        }
        return bytes
    }
}

/// A byte range to read: `length` bytes from `offset` (from the start when nil).
struct ByteRangeRequest: Sendable, Hashable {
    var length: Int
    var offset: Int?
}
