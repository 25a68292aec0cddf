// libswscale's functions, loaded on first use (loader.h): the ones Media's StillPicture calls to make a
// decoded frame small, in any pixel format, with FFmpeg 5.1's prototypes. A library of its own here,
// since libavformat (ffmpeg.c's last handle, which its symbols are looked up in) does not need it.
#include "COnDemand.h"
#include "loader.h"

#include <libavutil/version.h>
#include <libswscale/swscale.h>
#include <libswscale/version.h>

#define SWSCALE_FUNCTIONS(X) \
    X(struct SwsContext *, sws_getContext, \
        (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, \
            SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), \
        (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    X(int, sws_scale_frame, (struct SwsContext *c, AVFrame *dst, const AVFrame *src), (c, dst, src))

#define SWSCALE_PROCEDURES(X) \
    X(sws_freeContext, (struct SwsContext *swsContext), (swsContext))

// libswscale's handle, the last, searches it, then libavutil, which it needs.
static const char *const libraries[] = {
    "libavutil.so." ONDEMAND_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." ONDEMAND_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
};

ONDEMAND_LIBRARY(SWSCALE_FUNCTIONS, SWSCALE_PROCEDURES, ONDEMAND_NONE, COnDemand_swscaleFailure)
