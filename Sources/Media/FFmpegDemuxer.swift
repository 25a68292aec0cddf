import CFFmpeg
import COnDemand
import Foundation
import Glibc
import MediaValues

/// Reads the streams' parameters of media bytes with libavformat: the only place that walks FFmpeg's
/// structures.
///
/// It is handed bytes and nothing else: the loader fetched them under the location rule, and FFmpeg
/// opens no URL and no file of its own (its avio reads from memory). Which bytes to hand it (a
/// playlist's first segment, joined to its init section) is the caller's business.
public enum FFmpegDemuxer {
    /// Containers an HLS segment (or a file a person probes alongside one) comes in. Anything else
    /// FFmpeg might recognise, such as a `.txt` file read as ANSI art, is not media here.
    private static let acceptedFormats: Set<String> = [
        "mpegts", "mov", "mp4", "m4a", "aac", "ac3", "eac3", "mp3", "webvtt", "matroska", "webm",
        "wav", "flac", "ogg", "h264", "hevc",
    ]

    /// The streams of `bytes`, demuxed on a thread of `ProbeQueue`, away from Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - input: what the bytes are, for errors: the segment's path or URL.
    ///   - deadline: when the probe these bytes belong to gives up; `options.timeout` names it in errors.
    public static func streams(
        of bytes: Data, input: String, options: ProbeOptions, deadline: ContinuousClock.Instant
    ) async throws(MediaError) -> [StreamParameters] {
        try await ProbeQueue.run(by: deadline) { (deadline) throws(MediaError) -> [StreamParameters] in
            try streams(of: bytes, input: input, options: options, deadline: ProbeDeadline(until: deadline, seconds: options.timeout))
        }
    }

    /// Blocks the calling thread while libavformat reads the streams.
    static func streams(of bytes: Data, input: String, options: ProbeOptions, deadline: ProbeDeadline) throws(MediaError) -> [StreamParameters] {
        try withOpenedInput(bytes, input: input, options: options, deadline: deadline) { (open) throws(MediaError) -> [StreamParameters] in
            let found = avformat_find_stream_info(open, nil)
            guard found >= 0 else { throw FFmpegFailure.mediaError(found, input: input, deadline: deadline) }
            if deadline.hasPassed { throw MediaError(input: input, reason: .timedOut(seconds: deadline.seconds)) }

            let streams = (0..<Int(open.pointee.nb_streams)).compactMap { index in
                open.pointee.streams[index].map { parameters(of: $0, in: open) }
            }
            // ffprobe only warns about a stream it could not read; a player could not set it up, so here
            // that is the failure a truncated or damaged segment shows.
            if let unreadable = streams.first(where: { ($0.isVideo || $0.isAudio) && !$0.isUsable }) {
                throw MediaError(input: input, reason: .unreadableStream(index: unreadable.index, type: unreadable.codecType))
            }
            guard streams.contains(where: \.isUsable) else {
                throw MediaError(input: input, reason: .noUsableStreams)
            }
            return streams
        }
    }

    /// Opens `bytes` as one of the accepted containers and hands the open context to `body`; closes it after.
    ///
    /// The one way into libavformat: probing (`streams`) and segment analysis (`SegmentAnalysis`) differ
    /// only in what they do with the open context.
    static func withOpenedInput<Value>(
        _ bytes: Data, input: String, options: ProbeOptions, deadline: ProbeDeadline,
        _ body: (UnsafeMutablePointer<AVFormatContext>) throws(MediaError) -> Value
    ) throws(MediaError) -> Value {
        // FFmpeg is loaded on first use (COnDemand): a machine without it fails here, in words.
        if let failure = COnDemand_ffmpegFailure() {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOSYS), message: String(cString: failure)))
        }
        FFmpegLogging.silence()
        FFmpegMemory.limit()
        let memory = MemoryInput(bytes)
        guard let io = memory.makeContext() else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory"))
        }
        defer { MemoryInput.free(io) }
        return try withExtendedLifetime(memory) { () throws(MediaError) -> Value in
            var format: UnsafePointer<AVInputFormat>?
            // Probing keeps what it read in the context's buffer, so nothing is read twice. The file
            // name is only a hint for formats that extensions tell apart; nothing is opened by it.
            let score = av_probe_input_buffer2(io, &format, fileName(of: input), nil, 0, UInt32(clamping: options.probeSize))
            guard score >= 0, let format else { throw FFmpegFailure.mediaError(score, input: input, deadline: deadline) }

            let formatNames = String(cString: format.pointee.name)
            let names = formatNames.split(separator: ",").map(String.init)
            if names.contains("hls") {
                throw MediaError(input: input, reason: .invalidPlaylist("a playlist where a media segment belongs"))
            }
            guard names.contains(where: acceptedFormats.contains) else {
                throw MediaError(input: input, reason: .notMedia(detail: "FFmpeg reads it as '\(formatNames)'"))
            }
            return try open(io, format: format, input: input, options: options, deadline: deadline, body)
        }
    }

    /// The last path component of a path or URL, without a query.
    private static func fileName(of input: String) -> String {
        let path = URL(string: input)?.path ?? input
        return path.split(separator: "/").last.map(String.init) ?? ""
    }

    private static func open<Value>(
        _ io: UnsafeMutablePointer<AVIOContext>, format: UnsafePointer<AVInputFormat>, input: String,
        options: ProbeOptions, deadline: ProbeDeadline, _ body: (UnsafeMutablePointer<AVFormatContext>) throws(MediaError) -> Value
    ) throws(MediaError) -> Value {
        guard let allocated = avformat_alloc_context() else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory"))
        }
        // Set before avformat_open_input so that opening, too, can be interrupted.
        allocated.pointee.interrupt_callback = deadline.interruptCallback
        allocated.pointee.probesize = Int64(options.probeSize)
        allocated.pointee.max_streams = FFmpegMemory.streamLimit
        // Microseconds, kept to what an Int64 holds whatever the options say (a day is plenty).
        let analyze = options.analyzeDuration.isFinite ? min(max(options.analyzeDuration, 0), 86_400) : 0
        allocated.pointee.max_analyze_duration = Int64(analyze * 1e6)
        allocated.pointee.pb = io

        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        return try withExtendedLifetime(deadline) { () throws(MediaError) -> Value in
            // On failure avformat_open_input frees the context and sets it to nil.
            let opened = avformat_open_input(&context, nil, format, nil)
            guard opened >= 0, let open = context else {
                throw FFmpegFailure.mediaError(opened, input: input, deadline: deadline)
            }
            defer { avformat_close_input(&context) }
            return try body(open)
        }
    }

    /// One stream's parameters, read the way ffprobe's `show_stream` reads them.
    private static func parameters(of stream: UnsafeMutablePointer<AVStream>, in context: UnsafeMutablePointer<AVFormatContext>) -> StreamParameters {
        let codec = stream.pointee.codecpar!
        let type = codec.pointee.codec_type
        var result = StreamParameters(
            index: Int(stream.pointee.index), codecType: av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown")
        result.codecName = avcodec_descriptor_get(codec.pointee.codec_id).map { String(cString: $0.pointee.name) }
        result.profile = profileName(codec.pointee)
        result.bitsPerRawSample = codec.pointee.bits_per_raw_sample > 0 ? String(codec.pointee.bits_per_raw_sample) : nil
        result.rFrameRate = ratio(stream.pointee.r_frame_rate, separator: "/")
        result.avgFrameRate = ratio(stream.pointee.avg_frame_rate, separator: "/")
        result.language = av_dict_get(stream.pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }

        if type == AVMEDIA_TYPE_VIDEO {
            readVideo(of: stream, in: context, into: &result)
        } else if type == AVMEDIA_TYPE_AUDIO {
            readAudio(codec, into: &result)
        }
        if let name = result.codecName {
            let extradata = codec.pointee.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(codec.pointee.extradata_size))) } ?? []
            result.codecString = CodecString.make(
                codecName: name, profile: codec.pointee.profile, level: codec.pointee.level, extradata: extradata,
                codecTag: codec.pointee.codec_tag)
        }
        return result
    }

    private static func readVideo(
        of stream: UnsafeMutablePointer<AVStream>, in context: UnsafeMutablePointer<AVFormatContext>, into result: inout StreamParameters
    ) {
        let codec = stream.pointee.codecpar.pointee
        if codec.width > 0, codec.height > 0 {
            result.width = Int(codec.width)
            result.height = Int(codec.height)
        }
        let sar = av_guess_sample_aspect_ratio(context, stream, nil)
        if sar.num != 0, sar.den != 0, codec.width > 0, codec.height > 0 {
            result.sampleAspectRatio = ratio(sar, separator: ":")
            var dar = AVRational()
            av_reduce(&dar.num, &dar.den, Int64(codec.width) * Int64(sar.num), Int64(codec.height) * Int64(sar.den), 1024 * 1024)
            result.displayAspectRatio = ratio(dar, separator: ":")
        }
        let pixelFormat = AVPixelFormat(rawValue: codec.format)
        result.pixFmt = av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) }
        result.bitDepth = av_pix_fmt_desc_get(pixelFormat).map { Int($0.pointee.comp.0.depth) }
        result.level = codec.level == CFFmpeg_FF_LEVEL_UNKNOWN() ? nil : Int(codec.level)
        if codec.color_range != AVCOL_RANGE_UNSPECIFIED {
            result.colorRange = av_color_range_name(codec.color_range).map { String(cString: $0) }
        }
        if codec.color_space != AVCOL_SPC_UNSPECIFIED {
            result.colorSpace = av_color_space_name(codec.color_space).map { String(cString: $0) }
        }
        if codec.color_trc != AVCOL_TRC_UNSPECIFIED {
            result.colorTransfer = av_color_transfer_name(codec.color_trc).map { String(cString: $0) }
        }
        if codec.color_primaries != AVCOL_PRI_UNSPECIFIED {
            result.colorPrimaries = av_color_primaries_name(codec.color_primaries).map { String(cString: $0) }
        }
        result.dynamicRange = dolbyVision(of: stream) ?? DynamicRange.from(colorTransfer: result.colorTransfer)
    }

    private static func readAudio(_ codec: UnsafeMutablePointer<AVCodecParameters>, into result: inout StreamParameters) {
        result.sampleFmt = av_get_sample_fmt_name(AVSampleFormat(rawValue: codec.pointee.format)).map { String(cString: $0) }
        if codec.pointee.sample_rate > 0 { result.sampleRate = String(codec.pointee.sample_rate) }
        if codec.pointee.ch_layout.nb_channels > 0 { result.channels = Int(codec.pointee.ch_layout.nb_channels) }
        if codec.pointee.ch_layout.order != AV_CHANNEL_ORDER_UNSPEC {
            var buffer = [CChar](repeating: 0, count: 128)
            if av_channel_layout_describe(&codec.pointee.ch_layout, &buffer, buffer.count) > 0 {
                result.channelLayout = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        if codec.pointee.bits_per_raw_sample > 0 { result.bitDepth = Int(codec.pointee.bits_per_raw_sample) }
    }

    /// The Dolby Vision configuration record (dvcC/dvvC in MP4, the DOVI descriptor in TS), if any.
    private static func dolbyVision(of stream: UnsafeMutablePointer<AVStream>) -> DynamicRange? {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size),
            size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size
        else { return nil }
        let record = UnsafeRawPointer(data).loadUnaligned(as: AVDOVIDecoderConfigurationRecord.self)
        return .dolbyVision(
            profile: Int(record.dv_profile), level: Int(record.dv_level), compatibility: Int(record.dv_bl_signal_compatibility_id))
    }

    /// ffprobe prints the profile's name, or its number when the name is unknown to libavcodec.
    private static func profileName(_ codec: AVCodecParameters) -> String? {
        if let name = avcodec_profile_name(codec.codec_id, codec.profile) { return String(cString: name) }
        return codec.profile == CFFmpeg_FF_PROFILE_UNKNOWN() ? nil : String(codec.profile)
    }

    /// "30000/1001" or "16:9"; nil for FFmpeg's "unknown" (a zero part).
    private static func ratio(_ value: AVRational, separator: String) -> String? {
        value.num == 0 || value.den == 0 ? nil : "\(value.num)\(separator)\(value.den)"
    }
}

extension StreamParameters {
    /// A stream a player could set up: audio or video whose essentials were read.
    var isUsable: Bool {
        if isVideo { return codecName != nil && width != nil && pixFmt != nil }
        if isAudio { return codecName != nil && sampleRate != nil }
        return false
    }
}
