import CFFmpeg

/// The most memory libavutil hands out in one allocation, for the whole process.
///
/// FFmpeg sizes some tables by counts the file states before it has read what they count: an fMP4
/// `trun` of 3.7 KB that declares 83 million samples made libavformat (5.1) grow its index to 2.7 GB
/// inside `avformat_open_input`, where no interrupt callback is asked. With a cap the allocation fails
/// and the open fails with ENOMEM, which reaches the user as a damaged input. Nothing a segment or a
/// probed file needs comes near it: a two-hour 60 fps MP4's whole index is about 10 MB, a 4K
/// intra frame a few.
enum FFmpegMemory {
    static let largestAllocation = 128 << 20

    private static let limited: Void = av_max_alloc(largestAllocation)

    /// Set once per process, before the first FFmpeg call that reads input.
    static func limit() {
        _ = limited
    }
}
