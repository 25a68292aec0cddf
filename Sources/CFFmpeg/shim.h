// The parts of FFmpeg 5.1's headers that Swift cannot import: function-like and expression macros.
// Each wrapper is prefixed so it never collides with a name FFmpeg may add later.
#ifndef AIRLAB_CFFMPEG_SHIM_H
#define AIRLAB_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libavutil/dict.h>
#include <libavutil/crc.h>
#include <libswscale/swscale.h>

static inline int CFFmpeg_AVERROR(int posixError) { return AVERROR(posixError); }
static inline int CFFmpeg_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int CFFmpeg_AVERROR_EXIT(void) { return AVERROR_EXIT; }
static inline int CFFmpeg_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
static inline int CFFmpeg_AVERROR_PROTOCOL_NOT_FOUND(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int CFFmpeg_AVERROR_HTTP_NOT_FOUND(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int CFFmpeg_AVERROR_HTTP_SERVER_ERROR(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int CFFmpeg_AVERROR_HTTP_FORBIDDEN(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int CFFmpeg_AVERROR_HTTP_OTHER_4XX(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int CFFmpeg_AVERROR_HTTP_BAD_REQUEST(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int CFFmpeg_AVERROR_HTTP_UNAUTHORIZED(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int64_t CFFmpeg_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
static inline int CFFmpeg_FF_PROFILE_UNKNOWN(void) { return FF_PROFILE_UNKNOWN; }
static inline int CFFmpeg_FF_LEVEL_UNKNOWN(void) { return FF_LEVEL_UNKNOWN; }
static inline int CFFmpeg_AVSEEK_SIZE(void) { return AVSEEK_SIZE; }

#endif
