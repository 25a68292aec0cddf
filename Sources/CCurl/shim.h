// The parts of libcurl 7.88 that Swift cannot import: its variadic option and info calls (one wrapper
// per argument type, so the C compiler passes each argument as libcurl reads it) and its expression
// macros. Each wrapper is prefixed so it never collides with a name libcurl may add later.
#ifndef AIRLAB_CCURL_SHIM_H
#define AIRLAB_CCURL_SHIM_H

#include <curl/curl.h>
#include <sys/socket.h>

static inline CURLcode airlab_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode airlab_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// Strings are copied by libcurl (since 7.17), so the caller's buffer may go right after the call.
static inline CURLcode airlab_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

/// Data pointers, header lists and buffers, which libcurl keeps and the caller must keep alive.
static inline CURLcode airlab_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode airlab_curl_set_write_callback(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode airlab_curl_set_sockopt_callback(CURL *easy, curl_sockopt_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, callback);
}

static inline CURLcode airlab_curl_info_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode airlab_curl_info_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode airlab_curl_info_pointer(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLMcode airlab_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// The result of a finished transfer, from the union inside CURLMsg.
static inline CURLcode airlab_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

static inline long airlab_curl_global_default(void) { return CURL_GLOBAL_DEFAULT; }
static inline long airlab_curl_auth_digest(void) { return (long)CURLAUTH_DIGEST; }

/// A share that holds a connection cache of its own: the easy handles given it reuse only its connections.
static inline CURLSHcode airlab_curl_share_connections(CURLSH *share) {
    return curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
}
static inline int airlab_curl_pause_continue(void) { return CURLPAUSE_CONT; }
static inline size_t airlab_curl_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }

/// Sets the socket's receive buffer; a set size turns the kernel's autotuning off, so a paced reader's
/// back-pressure reaches the sender within that many bytes.
static inline int airlab_set_receive_buffer(int socket, int bytes) {
    return setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
}

#endif
