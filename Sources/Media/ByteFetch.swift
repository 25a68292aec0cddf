import CFFmpeg
import Glibc

/// Reads bytes of a file or http(s) resource through FFmpeg's avio.
///
/// Segments, playlists and init sections are all opened this way, so files and URLs share one
/// mechanism, one deadline and one set of error messages.
enum ByteFetch {
    /// What to do when the resource is longer than the limit.
    enum Overflow {
        case fail
        /// Keep the first `limit` bytes: enough to probe a segment.
        case truncate
    }

    /// Opens `location` for reading under `deadline`. The caller closes the context with `avio_close`.
    static func open(_ location: MediaLocation, deadline: ProbeDeadline) throws(MediaError) -> UnsafeMutablePointer<AVIOContext> {
        FFmpegLogging.silence()
        var options: OpaquePointer?
        av_dict_set(&options, "rw_timeout", deadline.readWriteTimeoutMicroseconds, 0)
        av_dict_set(&options, "protocol_whitelist", protocolWhitelist, 0)
        defer { av_dict_free(&options) }

        var context: UnsafeMutablePointer<AVIOContext>?
        // avio copies the callback; the deadline it points to outlives every use, as callers hold it.
        var callback = deadline.interruptCallback
        let opened = avio_open2(&context, location.ffmpegURL, AVIO_FLAG_READ, &callback, &options)
        guard opened >= 0, let context else {
            throw FFmpegFailure.mediaError(opened, input: location.description, deadline: deadline)
        }
        return context
    }

    /// The protocols FFmpeg may use; http(s) needs tcp and tls underneath.
    static let protocolWhitelist = "file,http,https,tcp,tls"

    static func read(
        _ location: MediaLocation, range: ByteRangeRequest? = nil, limit: Int, overflow: Overflow,
        deadline: ProbeDeadline
    ) throws(MediaError) -> [UInt8] {
        let context = try open(location, deadline: deadline)
        defer { avio_close(context) }
        return try read(from: context, input: location.description, range: range, limit: limit, overflow: overflow, deadline: deadline)
    }

    /// Reads from an open context: `range` from its start, or everything up to `limit` bytes.
    static func read(
        from context: UnsafeMutablePointer<AVIOContext>, input: String, range: ByteRangeRequest? = nil, limit: Int,
        overflow: Overflow, deadline: ProbeDeadline
    ) throws(MediaError) -> [UInt8] {
        if let offset = range?.offset, offset > 0 {
            let sought = avio_seek(context, Int64(offset), SEEK_SET)
            guard sought >= 0 else {
                throw FFmpegFailure.mediaError(Int32(truncatingIfNeeded: sought), input: input, deadline: deadline)
            }
        }
        let wanted = range.map { min($0.length, limit) } ?? limit
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < wanted {
            let count = avio_read(context, &chunk, Int32(min(chunk.count, wanted - bytes.count)))
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
