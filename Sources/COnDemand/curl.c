// libcurl's functions, loaded on first use (loader.h): the ones Transport calls, with libcurl 7.88's
// prototypes.
#include "COnDemand.h"
#include "loader.h"

#include <stdarg.h>

// Without this, curl.h makes curl_easy_setopt and curl_easy_getinfo macros that check their
// arguments' types, and the definitions below could not be written.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#define CURL_FUNCTIONS(X) \
    X(CURLcode, curl_global_init, (long flags), (flags)) \
    X(CURL *, curl_easy_init, (void), ()) \
    X(CURLcode, curl_easy_pause, (CURL *handle, int bitmask), (handle, bitmask)) \
    X(const char *, curl_easy_strerror, (CURLcode code), (code)) \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data), (list, data)) \
    X(CURLM *, curl_multi_init, (void), ()) \
    X(CURLMcode, curl_multi_add_handle, (CURLM *multi_handle, CURL *curl_handle), (multi_handle, curl_handle)) \
    X(CURLMcode, curl_multi_remove_handle, (CURLM *multi_handle, CURL *curl_handle), (multi_handle, curl_handle)) \
    X(CURLMcode, curl_multi_poll, \
        (CURLM *multi_handle, struct curl_waitfd extra_fds[], unsigned int extra_nfds, int timeout_ms, int *ret), \
        (multi_handle, extra_fds, extra_nfds, timeout_ms, ret)) \
    X(CURLMcode, curl_multi_wakeup, (CURLM *multi_handle), (multi_handle)) \
    X(CURLMcode, curl_multi_perform, (CURLM *multi_handle, int *running_handles), (multi_handle, running_handles)) \
    X(CURLMcode, curl_multi_cleanup, (CURLM *multi_handle), (multi_handle)) \
    X(CURLMsg *, curl_multi_info_read, (CURLM *multi_handle, int *msgs_in_queue), (multi_handle, msgs_in_queue)) \
    X(CURLSH *, curl_share_init, (void), ()) \
    X(CURLSHcode, curl_share_cleanup, (CURLSH *share), (share))

#define CURL_PROCEDURES(X) \
    X(curl_easy_cleanup, (CURL *curl), (curl)) \
    X(curl_slist_free_all, (struct curl_slist *list), (list))

// The four variadic functions take one argument after the option, whose type the option names.
#define CURL_VARIADIC(X) \
    X(CURLcode, curl_easy_setopt, (CURL *, CURLoption, ...)) \
    X(CURLcode, curl_easy_getinfo, (CURL *, CURLINFO, ...)) \
    X(CURLMcode, curl_multi_setopt, (CURLM *, CURLMoption, ...)) \
    X(CURLSHcode, curl_share_setopt, (CURLSH *, CURLSHoption, ...))

static const char *const libraries[] = {"libcurl.so.4"};

ONDEMAND_LIBRARY(CURL_FUNCTIONS, CURL_PROCEDURES, CURL_VARIADIC, COnDemand_curlFailure)

// An option's number says its argument's type (curl.h's CURLOPTTYPE_* and multi.h's CURLOPTTYPE_* for
// CURLMoption): a long below 10000, an object or a function pointer below 30000, a curl_off_t below
// 40000, a pointer above. The argument is read as that type and passed on as that type.
#define FORWARD_OPTION(real_function, handle, option, list) \
    do { \
        if ((option) < CURLOPTTYPE_OBJECTPOINT) { \
            long value = va_arg(list, long); \
            va_end(list); \
            return real_function(handle, option, value); \
        } else if ((option) < CURLOPTTYPE_FUNCTIONPOINT) { \
            void *value = va_arg(list, void *); \
            va_end(list); \
            return real_function(handle, option, value); \
        } else if ((option) < CURLOPTTYPE_OFF_T) { \
            void (*value)(void) = va_arg(list, void (*)(void)); \
            va_end(list); \
            return real_function(handle, option, value); \
        } else if ((option) < CURLOPTTYPE_BLOB) { \
            curl_off_t value = va_arg(list, curl_off_t); \
            va_end(list); \
            return real_function(handle, option, value); \
        } else { \
            void *value = va_arg(list, void *); \
            va_end(list); \
            return real_function(handle, option, value); \
        } \
    } while (0)

CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...) {
    ondemand_require(&state, load);
    va_list list;
    va_start(list, option);
    FORWARD_OPTION(real.curl_easy_setopt, curl, option, list);
}

CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    ondemand_require(&state, load);
    va_list list;
    va_start(list, option);
    FORWARD_OPTION(real.curl_multi_setopt, multi, option, list);
}

// Every CURLINFO's argument is a pointer to where the answer goes.
CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...) {
    ondemand_require(&state, load);
    va_list list;
    va_start(list, info);
    void *answer = va_arg(list, void *);
    va_end(list);
    return real.curl_easy_getinfo(curl, info, answer);
}

// Transport sets only CURLSHOPT_SHARE and CURLSHOPT_UNSHARE, whose argument is an int (a curl_lock_data).
CURLSHcode curl_share_setopt(CURLSH *share, CURLSHoption option, ...) {
    ondemand_require(&state, load);
    va_list list;
    va_start(list, option);
    int value = va_arg(list, int);
    va_end(list);
    return real.curl_share_setopt(share, option, value);
}
