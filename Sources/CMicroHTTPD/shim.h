// The parts of libmicrohttpd 0.9.75 that Swift cannot import: its variadic calls and its expression
// macros. Each wrapper is prefixed so it never collides with a name libmicrohttpd may add later.
#ifndef AIRLAB_CMICROHTTPD_SHIM_H
#define AIRLAB_CMICROHTTPD_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <poll.h>
#include <microhttpd.h>

/// Called once per request as soon as its request line has arrived, before its headers; the result
/// becomes the request's initial `con_cls` (NULL keeps the access handler's first-call logic).
typedef void *(*airlab_mhd_request_line_callback)(void *closure, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon with its own polling thread (epoll on Linux), suspend/resume and upgrades allowed,
/// bound to `address`. One closure serves every callback; a zero limit or timeout means none.
/// `threads` above 1 polls with that many threads, each accepting connections and serving its own
/// (libmicrohttpd shares the connection limit among them).
///
/// A pool polls with poll(2), not epoll: libmicrohttpd 0.9.75's epoll loop lets the first thread
/// awake accept up to ten connections in a row, so a burst of them (wrk's 64) landed 66 to 4 on
/// two threads and the busy one set the tail. Its poll loop accepts one per pass, which spread the
/// same burst evenly. poll costs a pass over the thread's connections, which for the one receiver
/// that gets a pool (alone in its process) are a handful of senders and viewers.
/// `timeout_seconds` is libmicrohttpd's idle timeout: silence on a connection that is not suspended.
///
/// `digest_random` seeds the Digest nonces and must stay unchanged until the daemon stops;
/// `nonce_nc_slots` is how many nonces libmicrohttpd remembers at once (0 when nothing is protected).
static inline struct MHD_Daemon *airlab_mhd_start(
    const struct sockaddr *address, bool ipv6,
    unsigned int threads, unsigned int connection_limit, unsigned int timeout_seconds, size_t memory_limit,
    const void *digest_random, size_t digest_random_size, unsigned int nonce_nc_slots,
    MHD_AccessHandlerCallback access, MHD_RequestCompletedCallback completed,
    MHD_NotifyConnectionCallback connection_notify, airlab_mhd_request_line_callback request_line,
    void *closure)
{
    // The server writes each response's Date itself (ServerCore.addDate) without glibc's time-zone lock.
    unsigned int polling = threads > 1 ? MHD_USE_POLL_INTERNAL_THREAD : MHD_USE_AUTO_INTERNAL_THREAD;
    unsigned int flags = polling | MHD_ALLOW_SUSPEND_RESUME | MHD_ALLOW_UPGRADE | MHD_USE_SUPPRESS_DATE_NO_CLOCK;
    if (ipv6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, 0, NULL, NULL, access, closure,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0u,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, closure,
        MHD_OPTION_NOTIFY_CONNECTION, connection_notify, closure,
        MHD_OPTION_URI_LOG_CALLBACK, request_line, closure,
        MHD_OPTION_DIGEST_AUTH_RANDOM, digest_random_size, digest_random,
        MHD_OPTION_NONCE_NC_SIZE, nonce_nc_slots,
        MHD_OPTION_END);
}

/// The port the daemon is bound to, which differs from the requested one when that was 0.
static inline uint16_t airlab_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The pointer the connection-notify callback stored for this connection.
static inline void *airlab_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The connection's socket, for checking whether its peer has gone and for shutting it down; it is
/// closed by libmicrohttpd after its connection-closed notification, never by the caller.
static inline int airlab_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Hands an upgraded socket back to libmicrohttpd, which closes it; it must never be closed directly.
static inline enum MHD_Result airlab_mhd_upgrade_close(struct MHD_UpgradeResponseHandle *handle) {
    return MHD_upgrade_action(handle, MHD_UPGRADE_ACTION_CLOSE);
}

/// poll(2)'s "the peer has closed its end", which glibc only defines under _GNU_SOURCE (Linux's value).
static inline short airlab_poll_peer_closed(void) {
#ifdef POLLRDHUP
    return POLLRDHUP;
#else
    return 0x2000;
#endif
}

static inline uint64_t airlab_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
static inline ssize_t airlab_mhd_content_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t airlab_mhd_content_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif
