// C libraries opened the first time one of their functions is called instead of when the process
// starts: FFmpeg (ffmpeg.c, swscale.c), libcurl (curl.c), libmicrohttpd (microhttpd.c) and OpenSSL's libcrypto
// (crypto.c). See loader.h for why and how.
#ifndef AIRLAB_CONDEMAND_H
#define AIRLAB_CONDEMAND_H

/// Opens libavformat, libavcodec and libavutil once in the process and looks up every function Media
/// calls. NULL when they are all there; otherwise the loader's message, which stays valid for the
/// process. Media asks before its first call into FFmpeg, so a missing library is an error it reports
/// rather than the abort a forwarding function would have to make.
const char *COnDemand_ffmpegFailure(void);

/// The same for libswscale and the functions Media calls to make a still picture small; Media asks before
/// its first call.
const char *COnDemand_swscaleFailure(void);

/// The same for libcurl and the functions Transport calls; Transport asks before its loop starts.
const char *COnDemand_curlFailure(void);

/// The same for libmicrohttpd and the functions HTTP calls; HTTP asks before a server starts.
const char *COnDemand_microhttpdFailure(void);

/// The same for libcrypto and the functions Cryptography calls for pairing; Cryptography asks before
/// its first call.
const char *COnDemand_cryptoFailure(void);

#endif
