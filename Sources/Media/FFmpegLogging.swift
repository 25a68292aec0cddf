import CFFmpeg

/// FFmpeg's own log, which goes to stderr unless told otherwise.
enum FFmpegLogging {
    /// Set once per process, before the first FFmpeg call: a library stays quiet and reports
    /// through its errors; the executable decides what a person sees.
    private static let silenced: Void = av_log_set_level(AV_LOG_QUIET)

    static func silence() {
        _ = silenced
    }
}
