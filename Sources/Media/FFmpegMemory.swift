import CFFmpeg

/// What libavformat may allocate for one input: at most 32 MiB in one allocation, in the whole process,
/// and at most 16 streams an input (set on each format context by `FFmpegDemuxer`).
///
/// FFmpeg sizes some tables by counts the file states before it has read what they count: an fMP4
/// `trun` of 3.7 KB that declares 83 million samples made libavformat (5.1) grow a stream's index and
/// its composition offsets to 2.7 GB inside `avformat_open_input`, where no interrupt callback is
/// asked. With the cap the allocation fails, and so does the open, with ENOMEM, which reaches the user
/// as a damaged file. The tables are per stream (24 bytes a sample for the index, 8 beside it), so with
/// the stream limit one hostile input takes at most about 700 MB; only demuxing in a process of its
/// own could bound the total. Nothing real comes near either limit: a six-hour 60 fps MP4's whole index
/// is about 30 MB, a 4K intra frame a few, and an HLS segment carries a handful of streams.
enum FFmpegMemory {
    static let largestAllocation = 32 << 20
    static let streamLimit: Int32 = 16

    private static let limited: Void = av_max_alloc(largestAllocation)

    /// Set once per process, before the first FFmpeg call that reads input.
    static func limit() {
        _ = limited
    }
}
