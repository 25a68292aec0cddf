// FFmpeg's functions, loaded on first use (loader.h): the ones Media calls, with FFmpeg 5.1's prototypes.
// Decoding one frame and encoding it as JPEG (Media's StillPicture) need libavcodec's codec calls too.
#include "COnDemand.h"
#include "loader.h"

#include <libavcodec/avcodec.h>
#include <libavcodec/version.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavformat/version.h>
#include <libavutil/channel_layout.h>
#include <libavutil/crc.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libavutil/rational.h>
#include <libavutil/samplefmt.h>
#include <libavutil/version.h>

// Each function Media calls, once: X(return type, name, parameters, arguments).
#define FFMPEG_FUNCTIONS(X) \
    X(int, av_channel_layout_describe, (const AVChannelLayout *channel_layout, char *buf, size_t buf_size), (channel_layout, buf, buf_size)) \
    X(const char *, av_color_primaries_name, (enum AVColorPrimaries primaries), (primaries)) \
    X(const char *, av_color_range_name, (enum AVColorRange range), (range)) \
    X(const char *, av_color_space_name, (enum AVColorSpace space), (space)) \
    X(const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer)) \
    X(uint32_t, av_crc, (const AVCRC *ctx, uint32_t crc, const uint8_t *buffer, size_t length), (ctx, crc, buffer, length)) \
    X(const AVCRC *, av_crc_get_table, (AVCRCId crc_id), (crc_id)) \
    X(AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags)) \
    X(const char *, av_get_media_type_string, (enum AVMediaType media_type), (media_type)) \
    X(const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    X(const char *, av_get_sample_fmt_name, (enum AVSampleFormat sample_fmt), (sample_fmt)) \
    X(AVRational, av_guess_sample_aspect_ratio, (AVFormatContext *format, AVStream *stream, AVFrame *frame), (format, stream, frame)) \
    X(AVFrame *, av_frame_alloc, (void), ()) \
    X(int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    X(AVRational, av_guess_frame_rate, (AVFormatContext *ctx, AVStream *stream, AVFrame *frame), (ctx, stream, frame)) \
    X(void *, av_malloc, (size_t size), (size)) \
    X(AVPacket *, av_packet_alloc, (void), ()) \
    X(const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    X(int, av_probe_input_buffer2, \
        (AVIOContext *pb, const AVInputFormat **fmt, const char *url, void *logctx, unsigned int offset, unsigned int max_probe_size), \
        (pb, fmt, url, logctx, offset, max_probe_size)) \
    X(int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    X(int, av_reduce, (int *dst_num, int *dst_den, int64_t num, int64_t den, int64_t max), (dst_num, dst_den, num, den, max)) \
    X(int64_t, av_rescale_q, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq)) \
    X(uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size)) \
    X(int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    X(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    X(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    X(const AVCodec *, avcodec_find_encoder, (enum AVCodecID id), (id)) \
    X(int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    X(int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    X(int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    X(int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt)) \
    X(int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame)) \
    X(int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    X(const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id)) \
    X(const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile)) \
    X(AVFormatContext *, avformat_alloc_context, (void), ()) \
    X(int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    X(int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), (ps, url, fmt, options)) \
    X(AVIOContext *, avio_alloc_context, \
        (unsigned char *buffer, int buffer_size, int write_flag, void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), \
            int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), int64_t (*seek)(void *opaque, int64_t offset, int whence)), \
        (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))

// The same for the functions that return nothing: X(name, parameters, arguments).
#define FFMPEG_PROCEDURES(X) \
    X(av_free, (void *ptr), (ptr)) \
    X(av_frame_free, (AVFrame **frame), (frame)) \
    X(av_freep, (void *ptr), (ptr)) \
    X(av_log_set_level, (int level), (level)) \
    X(av_max_alloc, (size_t max), (max)) \
    X(av_packet_free, (AVPacket **pkt), (pkt)) \
    X(av_packet_unref, (AVPacket *pkt), (pkt)) \
    X(avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    X(avformat_close_input, (AVFormatContext **s), (s)) \
    X(avio_context_free, (AVIOContext **s), (s))

// The major versions the headers were built for: the libraries' sonames, each after what it needs.
// libavformat's handle, the last, searches it, then libavcodec and libavutil, which it needs.
static const char *const libraries[] = {
    "libavutil.so." ONDEMAND_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libavcodec.so." ONDEMAND_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." ONDEMAND_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
};

ONDEMAND_LIBRARY(FFMPEG_FUNCTIONS, FFMPEG_PROCEDURES, ONDEMAND_NONE, COnDemand_ffmpegFailure)
