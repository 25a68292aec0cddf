import CFFmpeg
import Foundation
import Glibc
import MediaValues

/// Demuxes one media segment's bytes into `SegmentFacts`: packets only, nothing decoded, no
/// `avformat_find_stream_info`.
///
/// Reading packets costs a few milliseconds a segment where finding stream info costs five times as
/// much (docs/validate.md), so every segment of a stream can be analysed. A TS segment is
/// handed over as it is; an fMP4 segment with its init section in front, as a player appends them.
public enum SegmentAnalysis {
    /// Limits for analysis: a small probe size (the TS demuxer only needs to find the PMT; the MP4
    /// demuxer reads its `moov` whatever the limit) and no analysis window.
    public static let options = ProbeOptions(timeout: 10, probeSize: 64 << 10, analyzeDuration: 0)

    /// The facts of `bytes`, demuxed on a thread of `ProbeQueue`, away from Swift's cooperative pool.
    ///
    /// - Parameter input: what the bytes are, for errors: the segment's URL.
    public static func facts(
        of bytes: Data, input: String, options: ProbeOptions = options, deadline: ContinuousClock.Instant
    ) async throws(MediaError) -> SegmentFacts {
        try await ProbeQueue.run(by: deadline) { (deadline) throws(MediaError) -> SegmentFacts in
            try facts(of: bytes, input: input, options: options, deadline: ProbeDeadline(until: deadline, seconds: options.timeout))
        }
    }

    /// Blocks the calling thread while libavformat reads the packets.
    public static func facts(of bytes: Data, input: String, options: ProbeOptions = options, timeout: Double) throws(MediaError) -> SegmentFacts {
        try facts(of: bytes, input: input, options: options, deadline: ProbeDeadline(until: .now + .seconds(timeout), seconds: timeout))
    }

    static func facts(of bytes: Data, input: String, options: ProbeOptions, deadline: ProbeDeadline) throws(MediaError) -> SegmentFacts {
        if let facts = try read(bytes, input: input, options: options, deadline: deadline, parsing: false) { return facts }
        // A segment whose PES packets are not as packagers write them is read again with the parsers.
        guard let facts = try read(bytes, input: input, options: options, deadline: deadline, parsing: true) else {
            throw MediaError(input: input, reason: .noUsableStreams)
        }
        return facts
    }

    /// The facts of `bytes`, read with FFmpeg's parsers or, where they are not needed, without;
    /// nil when read without them and a PES packet showed they were needed after all.
    static func read(_ bytes: Data, input: String, options: ProbeOptions, deadline: ProbeDeadline, parsing: Bool) throws(MediaError) -> SegmentFacts? {
        let read = try FFmpegDemuxer.withOpenedInput(bytes, input: input, options: options, deadline: deadline) {
            (context) throws(MediaError) -> SegmentFacts? in
            try readPackets(context, byteCount: bytes.count, input: input, deadline: deadline, parsing: parsing)
        }
        guard var facts = read else { return nil }
        facts.transportStream = bytes.withUnsafeBytes { ContinuityScan.scan($0) }
        return facts
    }

    /// Whether the packets can be read without FFmpeg's parsers: MPEG-TS whose streams are H.264,
    /// HEVC and AAC. Its PES packets then come whole, each one video access unit or a run of whole
    /// ADTS frames, as packagers write them (and as `readPackets` checks), so the parsers, which scan
    /// every byte to find the frames again and copy them, are half the cost of demuxing for nothing.
    private static func needsNoParsers(_ context: UnsafeMutablePointer<AVFormatContext>, streams: [UnsafeMutablePointer<AVStream>]) -> Bool {
        guard let format = context.pointee.iformat, String(cString: format.pointee.name) == "mpegts" else { return false }
        return streams.allSatisfy { stream in
            let codec = stream.pointee.codecpar.pointee
            switch codec.codec_type {
            case AVMEDIA_TYPE_VIDEO: return codec.codec_id == AV_CODEC_ID_H264 || codec.codec_id == AV_CODEC_ID_HEVC
            case AVMEDIA_TYPE_AUDIO: return codec.codec_id == AV_CODEC_ID_AAC
            default: return true
            }
        }
    }

    /// The facts of the open input; nil when, read without parsers, a PES packet held more than one
    /// picture or something other than whole ADTS frames (the caller reads it again with them).
    private static func readPackets(
        _ context: UnsafeMutablePointer<AVFormatContext>, byteCount: Int, input: String, deadline: ProbeDeadline, parsing: Bool
    ) throws(MediaError) -> SegmentFacts? {
        let streams = (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
        let videoStream = streams.first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        let audioStream = streams.first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        guard videoStream != nil || audioStream != nil else { throw MediaError(input: input, reason: .noUsableStreams) }
        // Parsers start with a stream's first packet, so the flag holds from the first read on.
        let wholePES = !parsing && needsNoParsers(context, streams: streams)
        if wholePES { context.pointee.flags |= AVFMT_FLAG_NOPARSE | AVFMT_FLAG_NOFILLIN }

        var video = videoStream.flatMap(TrackAccumulator.init)
        var audio = audioStream.flatMap(TrackAccumulator.init)
        var units = videoStream.map { VideoUnits(codecpar: $0.pointee.codecpar.pointee, countsPictures: wholePES) }
        var facts = SegmentFacts(byteCount: byteCount)
        if let codecpar = audioStream?.pointee.codecpar.pointee, codecpar.extradata_size > 0, let extradata = codecpar.extradata {
            facts.audioConfigurationHash = crc32(UnsafeRawBufferPointer(start: extradata, count: Int(codecpar.extradata_size)))
        }

        guard let packet = av_packet_alloc() else {
            throw MediaError(input: input, reason: .ffmpeg(code: CFFmpeg_AVERROR(ENOMEM), message: "out of memory"))
        }
        defer {
            var allocated: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&allocated)
        }
        var read = 0
        while true {
            let result = av_read_frame(context, packet)
            if deadline.hasPassed { throw MediaError(input: input, reason: .timedOut(seconds: deadline.seconds)) }
            if result < 0 {
                // The end, or damage after some packets: what was read is the segment as a player sees it.
                if result == CFFmpeg_AVERROR_EOF() || read > 0 { break }
                throw FFmpegFailure.mediaError(result, input: input, deadline: deadline)
            }
            defer { av_packet_unref(packet) }
            read += 1
            let index = packet.pointee.stream_index
            let payload = packet.pointee.data.map { UnsafeRawBufferPointer(start: $0, count: max(0, Int(packet.pointee.size))) }
                ?? UnsafeRawBufferPointer(start: nil, count: 0)
            if index == videoStream?.pointee.index, video != nil {
                let time = video!.add(packet.pointee)
                guard units!.read(payload, presentedAt: time, into: &facts) <= 1 else { return nil }
            } else if index == audioStream?.pointee.index, audio != nil {
                if audio!.packetCount == 0, audioStream!.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_AAC {
                    facts.adtsHeader = ADTSHeader(payload)
                    // Without stream info the TS demuxer gives AAC frames no duration; an ADTS frame holds 1024 samples.
                    if let rate = facts.adtsHeader?.sampleRate { audio!.setFrameDuration(samples: 1024, sampleRate: rate) }
                }
                guard wholePES else {
                    _ = audio!.add(packet.pointee)
                    continue
                }
                // A PES packet of several ADTS frames: each frame is a packet, as the parser would give
                // them, the first with the PES's time and the others timed from it.
                guard let frames = Self.adtsFrameCount(payload) else { return nil }
                var frame = packet.pointee
                for _ in 0..<frames {
                    _ = audio!.add(frame)
                    (frame.pts, frame.dts) = (CFFmpeg_AV_NOPTS_VALUE(), CFFmpeg_AV_NOPTS_VALUE())
                }
            }
        }
        facts.video = video?.facts
        facts.audio = audio?.facts
        if facts.video == nil, facts.audio == nil { throw MediaError(input: input, reason: .noUsableStreams) }
        if facts.parameterSetHash == nil, let units { facts.parameterSetHash = units.configurationHash }
        return facts
    }

    /// How many whole ADTS frames `payload` is, back to back; nil when it is anything else (a frame
    /// cut across PES packets, bytes that are no ADTS), which only the parser can put together.
    static func adtsFrameCount(_ payload: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        var frames = 0
        while offset < payload.count {
            guard payload.count - offset >= 7, payload[offset] == 0xFF, payload[offset + 1] & 0xF6 == 0xF0 else { return nil }
            // frame_length: 13 bits from bit 30 of the header, the header included.
            let length = Int(payload[offset + 3] & 0x03) << 11 | Int(payload[offset + 4]) << 3 | Int(payload[offset + 5]) >> 5
            guard length >= 7, length <= payload.count - offset else { return nil }
            offset += length
            frames += 1
        }
        return frames > 0 ? frames : nil
    }

    /// CRC-32 (IEEE) of `bytes`, by libavutil.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return av_crc(av_crc_get_table(AV_CRC_32_IEEE), 0xFFFF_FFFF, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
}

/// One stream's packets summed up as they pass, in the stream's time base.
private struct TrackAccumulator {
    let codecName: String?
    let timeBase: Double
    let rational: AVRational
    var packetCount = 0
    var firstPTS: Int64?
    var minPTS = Int64.max
    var maxPTS = Int64.min
    /// max(PTS + duration) over packets whose duration is known.
    var maxEnd = Int64.min
    var firstDTS: Int64?
    var lastDTS: Int64?
    /// The duration of the packet last added, in the time base; 0 when unknown.
    var lastDuration: Int64 = 0
    /// How often each DTS step occurred: the most common one is the frame duration.
    var steps: [Int64: Int] = [:]

    /// Nil for a time base that is not a positive fraction (nothing could be converted to seconds).
    init?(_ stream: UnsafeMutablePointer<AVStream>) {
        let base = stream.pointee.time_base
        guard base.num > 0, base.den > 0 else { return nil }
        timeBase = Double(base.num) / Double(base.den)
        rational = base
        codecName = avcodec_descriptor_get(stream.pointee.codecpar.pointee.codec_id).map { String(cString: $0.pointee.name) }
    }

    /// The duration given to packets that come without one, in the time base; 0 when unknown.
    private var frameTicks: Int64 = 0

    /// Integer arithmetic (FFmpeg's rescaling), so no floating-point value is ever converted.
    mutating func setFrameDuration(samples: Int64, sampleRate: Int) {
        guard sampleRate > 0, sampleRate <= Int(Int32.max) else { return }
        frameTicks = max(0, av_rescale_q(samples, AVRational(num: 1, den: Int32(sampleRate)), rational))
    }

    /// Adds a packet; returns its presentation time in seconds, when it has one.
    mutating func add(_ packet: AVPacket) -> Double? {
        let none = CFFmpeg_AV_NOPTS_VALUE()
        packetCount += 1
        var dts = packet.dts == none ? nil : packet.dts
        var pts = packet.pts == none ? dts : packet.pts
        // Without stream info, the frames after the first of a TS PES packet (several AAC frames
        // share one) come without timestamps; ffprobe's are interpolated from the frame durations,
        // and so are these: the previous frame's time plus its duration.
        if dts == nil, pts == nil, let lastDTS, lastDuration > 0, lastDTS < Int64.max - lastDuration {
            dts = lastDTS + lastDuration
            pts = dts
        }
        let duration = packet.duration > 0 ? packet.duration : frameTicks
        lastDuration = duration
        if let dts {
            if let lastDTS, dts > lastDTS, dts - lastDTS < Int64.max / 2 { steps[dts - lastDTS, default: 0] += 1 }
            if firstDTS == nil { firstDTS = dts }
            lastDTS = dts
        }
        guard let pts else { return nil }
        if firstPTS == nil { firstPTS = pts }
        minPTS = min(minPTS, pts)
        maxPTS = max(maxPTS, pts)
        // A duration from the file is only trusted when it is positive and adding it cannot overflow.
        if duration > 0, pts < Int64.max - duration { maxEnd = max(maxEnd, pts + duration) }
        return Double(pts) * timeBase
    }

    var facts: TrackFacts? {
        guard let firstDTS, let lastDTS, minPTS <= maxPTS else { return nil }
        // Ties go to the smaller step, so that the answer does not depend on the dictionary's order.
        let step = steps.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
        var end = maxEnd
        if let step, maxPTS < Int64.max - step { end = max(end, maxPTS + step) }
        if end == Int64.min { end = maxPTS }
        return TrackFacts(
            codecName: codecName, firstPTS: Double(minPTS) * timeBase, lastPTS: Double(maxPTS) * timeBase,
            firstDTS: Double(firstDTS) * timeBase, lastDTS: Double(lastDTS) * timeBase,
            duration: (Double(end) - Double(minPTS)) * timeBase, frameDuration: step.map { Double($0) * timeBase },
            packetCount: packetCount)
    }
}

/// Reads the NAL unit types of H.264 and HEVC access units: Annex B (start codes) in TS and in raw
/// streams, length prefixes when the codec configuration is an avcC/hvcC record (MP4).
struct VideoUnits {
    enum Codec { case h264, hevc, other }

    let codec: Codec
    /// The NAL length size of an avcC/hvcC configuration; nil for Annex B.
    let lengthSize: Int?
    /// CRC-32 of the configuration record, for parameter sets carried only there (avc1/hvc1).
    let configurationHash: UInt32?
    /// Whether every unit of a packet is looked at, to count the pictures in it: a PES packet read
    /// without the parser must hold one.
    let countsPictures: Bool
    private var seenFirst = false

    init(codecpar: AVCodecParameters, countsPictures: Bool = false) {
        let id = codecpar.codec_id
        self.init(
            codec: id == AV_CODEC_ID_H264 ? .h264 : id == AV_CODEC_ID_HEVC ? .hevc : .other, extradata: codecpar.extradata,
            size: Int(max(0, codecpar.extradata_size)), countsPictures: countsPictures)
    }

    /// Units of `codec` in Annex B, with no configuration record.
    init(annexB codec: Codec, countsPictures: Bool) {
        self.init(codec: codec, extradata: nil, size: 0, countsPictures: countsPictures)
    }

    private init(codec: Codec, extradata data: UnsafeMutablePointer<UInt8>?, size: Int, countsPictures: Bool) {
        self.countsPictures = countsPictures
        self.codec = codec
        guard let data, size > 0 else {
            lengthSize = nil
            configurationHash = nil
            return
        }
        let record = UnsafeRawBufferPointer(start: data, count: size)
        configurationHash = SegmentAnalysis.crc32(record)
        // A configuration record starts with version 1; Annex B extradata starts with a start code.
        switch codec {
        case .h264 where size >= 7 && record[0] == 1: lengthSize = Int(record[4] & 0x03) + 1
        case .hevc where size >= 23 && record[0] == 1: lengthSize = Int(record[21] & 0x03) + 1
        default: lengthSize = nil
        }
    }

    /// Reads one video packet (one access unit): the first one's kind, IDR times, in-band parameter
    /// sets. Returns how many pictures it holds when `countsPictures`, else 1.
    ///
    /// Only the units up to the first slice are read: parameter sets and SEI come before it, and every
    /// slice of a picture has the same type, so the slice data (nearly all of the bytes) is skipped.
    /// Counting pictures goes on to every start code, but reads only the first byte after each header:
    /// a picture's first slice says so in its first bit (first_mb_in_slice 0 in H.264,
    /// first_slice_segment_in_pic_flag in HEVC).
    mutating func read(_ payload: UnsafeRawBufferPointer, presentedAt time: Double?, into facts: inout SegmentFacts) -> Int {
        guard codec != .other, !payload.isEmpty else { return 1 }
        let pictures = countsPictures && lengthSize == nil ? pictureCount(in: payload) : 1
        var kind = AccessUnitKind.nonIDR
        var parameterSets: [UInt8] = []
        let wantsParameterSets = facts.parameterSetHash == nil
        // Returns false at the first slice: the picture's kind is known then.
        func visit(_ range: @autoclosure () -> Range<Int>, header: UInt8) -> Bool {
            let type = unitType(header)
            switch (codec, type) {
            case (.h264, 5), (.hevc, 19), (.hevc, 20): kind = .idr
            case (.hevc, 16...18): kind = .brokenLinkAccess
            case (.hevc, 21): kind = .cleanRandomAccess
            case (.h264, 7), (.h264, 8), (.hevc, 32...34):
                if wantsParameterSets { parameterSets += payload[range()] }
                return true
            default: break
            }
            return !isSlice(type)
        }
        if let lengthSize {
            for range in NALUnits.lengthPrefixedRanges(in: payload, lengthSize: lengthSize) where !range.isEmpty {
                guard visit(range, header: payload[range.lowerBound]) else { break }
            }
        } else {
            NALUnits.visitUnits(in: payload) { start in
                guard start < payload.count else { return false }
                return visit(start..<NALUnits.unitEnd(in: payload, from: start), header: payload[start])
            }
        }
        if !seenFirst {
            seenFirst = true
            facts.firstVideoUnit = kind
        }
        if kind == .idr || kind == .brokenLinkAccess, let time { facts.idrTimes.append(time) }
        if !parameterSets.isEmpty { facts.parameterSetHash = parameterSets.withUnsafeBytes { SegmentAnalysis.crc32($0) } }
        return pictures
    }

    /// The NAL unit type in a unit's (first) header byte.
    private func unitType(_ header: UInt8) -> Int {
        codec == .h264 ? Int(header & 0x1F) : Int(header >> 1 & 0x3F)
    }

    /// Whether units of `type` carry a slice of a picture (VCL units).
    private func isSlice(_ type: Int) -> Bool {
        codec == .h264 ? (1...5).contains(type) : type < 32
    }

    /// The pictures that begin in an Annex B packet: its slices that are the first of their picture.
    private func pictureCount(in payload: UnsafeRawBufferPointer) -> Int {
        var pictures = 0
        let headerSize = codec == .h264 ? 1 : 2
        NALUnits.visitUnits(in: payload) { start in
            guard start + headerSize < payload.count else { return false }
            if isSlice(unitType(payload[start])), payload[start + headerSize] & 0x80 != 0 { pictures += 1 }
            return pictures <= 1
        }
        return pictures
    }
}
