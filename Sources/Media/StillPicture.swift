import CFFmpeg
import COnDemand
import Foundation
import MediaValues

/// A segment's picture: its first video frame, decoded with libavcodec, made small by libswscale and
/// encoded as JPEG with libavcodec's own MJPEG encoder. What the console shows of a receiver's screen, and what a
/// report shows at a transition.
///
/// Bytes from outside go through the same door as probing (`FFmpegDemuxer.withOpenedInput`: accepted
/// containers only, the memory cap, the deadline), and decoding is bounded by packets read as well as
/// by the deadline, so a hostile segment costs a bounded amount of one probe thread and ends as an error.
public enum StillPicture {
    /// The widest picture made: a tile's, which is all the console and the reports show.
    public static let maximumWidth = 640
    /// Packets read looking for a first frame: a segment's first video frame comes within its first
    /// GOP, a few hundred packets at most; past this the bytes are not a picture worth waiting for.
    static let packetLimit = 2_000

    /// The JPEG of `bytes`' first video frame, at most `width` pixels wide, made on a probe thread.
    public static func jpeg(of bytes: Data, input: String, width: Int, timeout: Double) async throws(MediaError) -> Data {
        let options = ProbeOptions(timeout: timeout)
        return try await ProbeQueue.run(by: .now + .milliseconds(Int(options.timeout * 1000))) { (deadline) throws(MediaError) -> Data in
            try jpeg(of: bytes, input: input, width: width, options: options, deadline: ProbeDeadline(until: deadline, seconds: options.timeout))
        }
    }

    /// Blocks the calling thread while FFmpeg decodes and encodes.
    static func jpeg(of bytes: Data, input: String, width: Int, options: ProbeOptions, deadline: ProbeDeadline) throws(MediaError) -> Data {
        try FFmpegDemuxer.withOpenedInput(bytes, input: input, options: options, deadline: deadline) { (open) throws(MediaError) -> Data in
            let found = avformat_find_stream_info(open, nil)
            guard found >= 0 else { throw FFmpegFailure.mediaError(found, input: input, deadline: deadline) }
            let streams = (0..<Int(open.pointee.nb_streams)).compactMap { open.pointee.streams[$0] }
            guard let stream = streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }) else {
                throw MediaError(input: input, reason: .notMedia(detail: "no video stream to take a picture from"))
            }
            let frame = try PictureFrame.firstFrame(of: stream, in: open, input: input, deadline: deadline)
            let small = try frame.scaled(toWidth: min(max(16, width), maximumWidth), input: input)
            return try small.jpeg(input: input)
        }
    }
}

/// One `AVFrame`, freed with its owner.
final class PictureFrame {
    let frame: UnsafeMutablePointer<AVFrame>

    private init(_ frame: UnsafeMutablePointer<AVFrame>) {
        self.frame = frame
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }

    static func allocate(input: String) throws(MediaError) -> PictureFrame {
        guard let frame = av_frame_alloc() else { throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory")) }
        return PictureFrame(frame)
    }

    /// The first frame libavcodec decodes from `stream`'s packets.
    static func firstFrame(
        of stream: UnsafeMutablePointer<AVStream>, in open: UnsafeMutablePointer<AVFormatContext>, input: String, deadline: ProbeDeadline
    ) throws(MediaError) -> PictureFrame {
        let parameters = stream.pointee.codecpar!
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError(input: input, reason: .notMedia(detail: "FFmpeg has no decoder for its video"))
        }
        let codec = try CodecContext(decoder, input: input)
        guard avcodec_parameters_to_context(codec.context, parameters) >= 0 else {
            throw MediaError(input: input, reason: .unreadableStream(index: Int(stream.pointee.index), type: "video"))
        }
        // One thread: the picture is small work, and the probe queue already runs several at once.
        codec.context.pointee.thread_count = 1
        try codec.open(decoder, input: input)
        let decoded = try PictureFrame.allocate(input: input)
        guard let packet = av_packet_alloc() else { throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory")) }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }

        var read = 0
        var draining = false
        while true {
            let received = avcodec_receive_frame(codec.context, decoded.frame)
            if received >= 0 { break }
            guard received == CFFmpeg_AVERROR(EAGAIN), !draining else {
                throw MediaError(input: input, reason: .notMedia(detail: "no picture could be decoded from its video"))
            }
            guard !deadline.hasPassed, read < StillPicture.packetLimit else { throw MediaError(input: input, reason: .timedOut(seconds: deadline.seconds)) }
            let status = av_read_frame(open, packet)
            if status < 0 {
                // The end of the bytes: what the decoder holds comes out now.
                draining = true
                _ = avcodec_send_packet(codec.context, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            read += 1
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            let sent = avcodec_send_packet(codec.context, packet)
            if sent < 0, sent != CFFmpeg_AVERROR(EAGAIN), sent != CFFmpeg_AVERROR_INVALIDDATA() {
                throw FFmpegFailure.mediaError(sent, input: input, deadline: deadline)
            }
        }
        return decoded
    }

    /// A copy at most `width` wide keeping the aspect ratio, full-range 4:2:0 as the JPEG encoder takes it,
    /// made by libswscale from whatever the decoder gave (8- or 10-bit, 4:2:0 to 4:4:4, limited or full
    /// range), bilinear.
    func scaled(toWidth requested: Int, input: String) throws(MediaError) -> PictureFrame {
        if let failure = COnDemand_swscaleFailure() {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOSYS), message: String(cString: failure)))
        }
        let format = AVPixelFormat(frame.pointee.format)
        let sourceWidth = Int(frame.pointee.width), sourceHeight = Int(frame.pointee.height)
        guard sourceWidth > 0, sourceHeight > 0 else { throw MediaError(input: input, reason: .notMedia(detail: "a picture without size")) }
        let width = max(2, min(requested, sourceWidth) & ~1)
        let height = max(2, (width * sourceHeight / sourceWidth) & ~1)
        let target = try PictureFrame.allocate(input: input)
        target.frame.pointee.width = Int32(width)
        target.frame.pointee.height = Int32(height)
        target.frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        guard av_frame_get_buffer(target.frame, 0) >= 0 else { throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory")) }
        guard let scaler = sws_getContext(
            Int32(sourceWidth), Int32(sourceHeight), format, Int32(width), Int32(height), AV_PIX_FMT_YUVJ420P, SWS_BILINEAR, nil, nil, nil)
        else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
            throw MediaError(input: input, reason: .notMedia(detail: "its pictures are \(name), which libswscale does not convert"))
        }
        defer { sws_freeContext(scaler) }
        let scaled = sws_scale_frame(scaler, target.frame, frame)
        guard scaled >= 0 else { throw MediaError(input: input, reason: .ffmpeg(code: scaled, message: FFmpegFailure.message(scaled))) }
        return target
    }

    /// The frame as a baseline JPEG, by libavcodec's MJPEG encoder.
    func jpeg(input: String) throws(MediaError) -> Data {
        guard let encoder = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOSYS), message: "this FFmpeg has no MJPEG encoder"))
        }
        let codec = try CodecContext(encoder, input: input)
        codec.context.pointee.width = frame.pointee.width
        codec.context.pointee.height = frame.pointee.height
        codec.context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        codec.context.pointee.time_base = AVRational(num: 1, den: 25)
        codec.context.pointee.qmin = 2
        codec.context.pointee.qmax = 8
        try codec.open(encoder, input: input)
        guard avcodec_send_frame(codec.context, frame) >= 0, let packet = av_packet_alloc() else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR_INVALIDDATA(), message: "the JPEG encoder refused the picture"))
        }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        guard avcodec_receive_packet(codec.context, packet) >= 0, let data = packet.pointee.data, packet.pointee.size > 0 else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR_INVALIDDATA(), message: "the JPEG encoder wrote nothing"))
        }
        return Data(bytes: data, count: Int(packet.pointee.size))
    }
}

/// One `AVCodecContext`, freed with its owner.
final class CodecContext {
    let context: UnsafeMutablePointer<AVCodecContext>

    init(_ codec: UnsafePointer<AVCodec>, input: String) throws(MediaError) {
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory"))
        }
        self.context = context
    }

    func open(_ codec: UnsafePointer<AVCodec>, input: String) throws(MediaError) {
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else {
            throw MediaError(input: input, reason: .ffmpeg(code: opened, message: FFmpegFailure.message(opened)))
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }
}
