import CFFmpeg
import Foundation
import Glibc

/// Bytes already in memory, offered to libavformat as its input.
///
/// The only input libavformat gets: the loader fetched the bytes (a segment, joined to its init
/// section the way a player appends them to one buffer), so FFmpeg never opens a URL or a file.
final class MemoryInput {
    private let bytes: Data
    private var position = 0

    init(_ bytes: Data) {
        self.bytes = bytes
    }

    /// An avio context reading from this object. The caller keeps `self` alive while it is in use and
    /// frees the context with `MemoryInput.free`.
    func makeContext() -> UnsafeMutablePointer<AVIOContext>? {
        let bufferSize: Int32 = 32 * 1024
        guard let buffer = av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let context = avio_alloc_context(
            buffer, bufferSize, 0, Unmanaged.passUnretained(self).toOpaque(),
            { opaque, destination, size in
                guard let opaque, let destination else { return CFFmpeg_AVERROR(EINVAL) }
                return Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue().read(into: destination, size: Int(size))
            },
            nil,
            { opaque, offset, whence in
                guard let opaque else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
                return Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue().seek(to: offset, whence: whence)
            })
        if context == nil { av_free(buffer) }
        return context
    }

    static func free(_ context: UnsafeMutablePointer<AVIOContext>) {
        var context: UnsafeMutablePointer<AVIOContext>? = context
        // avio may have replaced the buffer it was given; free the one it holds now.
        av_freep(&context!.pointee.buffer)
        avio_context_free(&context)
    }

    private func read(into destination: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
        let count = min(size, bytes.count - position)
        guard count > 0 else { return CFFmpeg_AVERROR_EOF() }
        bytes.withUnsafeBytes { source in
            destination.update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + position, count: count)
        }
        position += count
        return Int32(count)
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        if whence & CFFmpeg_AVSEEK_SIZE() != 0 { return Int64(bytes.count) }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = Int64(position) + offset
        case SEEK_END: target = Int64(bytes.count) + offset
        default: return Int64(CFFmpeg_AVERROR(EINVAL))
        }
        guard target >= 0, target <= Int64(bytes.count) else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
        position = Int(target)
        return target
    }
}
