// The parts of libmicrohttpd 0.9.75 that Swift cannot import: its variadic calls and its expression
// macros. Each wrapper is prefixed so it never collides with a name libmicrohttpd may add later.
#ifndef AIRLAB_CMICROHTTPD_SHIM_H
#define AIRLAB_CMICROHTTPD_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <fcntl.h>
#include <microhttpd.h>

/// Called once per request as soon as its request line has arrived, before its headers; the result
/// becomes the request's initial `con_cls` (NULL keeps the access handler's first-call logic).
typedef void *(*airlab_mhd_request_line_callback)(void *closure, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon, suspend/resume and upgrades allowed, bound to `address`. One closure serves every
/// callback; a zero limit or timeout means none.
///
/// `threads` 0: no thread of its own; the caller runs it (`airlab_mhd_run`) when its epoll set
/// (`airlab_mhd_epoll_fd`) is readable or its timeout has passed, so one loop can serve many
/// daemons. 1: a polling thread of its own (epoll). Above 1: that many polling threads, each
/// accepting connections and serving its own (libmicrohttpd shares the connection limit among them).
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
///
/// `listen` false: no listening socket of its own; its connections come from `MHD_add_connection`
/// (a `ConnectionFront` that accepts them first).
static inline struct MHD_Daemon *airlab_mhd_start(
    const struct sockaddr *address, bool ipv6, bool listen,
    unsigned int threads, unsigned int connection_limit, unsigned int timeout_seconds, size_t memory_limit,
    const void *digest_random, size_t digest_random_size, unsigned int nonce_nc_slots,
    MHD_AccessHandlerCallback access, MHD_RequestCompletedCallback completed,
    MHD_NotifyConnectionCallback connection_notify, airlab_mhd_request_line_callback request_line,
    void *closure)
{
    // The server writes each response's Date itself (ServerCore.addDate) without glibc's time-zone lock.
    unsigned int polling = threads == 0 ? MHD_USE_EPOLL : threads > 1 ? MHD_USE_POLL_INTERNAL_THREAD : MHD_USE_AUTO_INTERNAL_THREAD;
    unsigned int flags = polling | MHD_ALLOW_SUSPEND_RESUME | MHD_ALLOW_UPGRADE | MHD_USE_SUPPRESS_DATE_NO_CLOCK;
    if (ipv6) flags |= MHD_USE_IPv6;
    if (!listen) flags |= MHD_USE_NO_LISTEN_SOCKET;
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

/// The epoll set of a daemon started without a thread of its own: readable when it has work.
static inline int airlab_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/// Runs a daemon without a thread of its own once, without blocking, and says when it must run again
/// whatever its descriptors do: in milliseconds (0: at once, it has data left to process), or -1 when
/// only activity on its descriptors needs it.
static inline int64_t airlab_mhd_run(struct MHD_Daemon *daemon) {
    (void) MHD_run(daemon);
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return -1;
    return timeout > (MHD_UNSIGNED_LONG_LONG) INT64_MAX ? INT64_MAX : (int64_t) timeout;
}

// The epoll set of the loop that runs daemons without threads of their own (ServerLoop), in keys:
// Swift's Glibc module has no epoll, and epoll_event is a packed struct.

/// A new epoll set with a wake-up eventfd in it under key 0; -1 when either cannot be made.
static inline int airlab_loop_create(int *wake_up) {
    int set = epoll_create1(EPOLL_CLOEXEC);
    *wake_up = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (set < 0 || *wake_up < 0) return -1;
    struct epoll_event event = { .events = EPOLLIN, .data.u64 = 0 };
    return epoll_ctl(set, EPOLL_CTL_ADD, *wake_up, &event) == 0 ? set : -1;
}

/// Watches `descriptor` for reading under `key`, or stops watching it when `watch` is false.
static inline void airlab_loop_watch(int set, int descriptor, uint64_t key, bool watch) {
    struct epoll_event event = { .events = EPOLLIN, .data.u64 = key };
    (void) epoll_ctl(set, watch ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, descriptor, &event);
}

/// Waits up to `timeout_ms` (-1: for ever) and writes the keys of what is ready; their count, or 0
/// when interrupted.
static inline int airlab_loop_wait(int set, uint64_t *keys, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    int ready = epoll_wait(set, events, capacity < 64 ? capacity : 64, timeout_ms);
    for (int index = 0; index < ready; index++) keys[index] = events[index].data.u64;
    return ready < 0 ? 0 : ready;
}

/// Watches `descriptor` under `key` for reading and/or writing (a descriptor of a connection front),
/// adding it or changing what is watched; `add` false changes.
static inline void airlab_loop_watch_io(int set, int descriptor, uint64_t key, bool reading, bool writing, bool add) {
    struct epoll_event event = { .events = (reading ? EPOLLIN : 0) | (writing ? EPOLLOUT : 0) | EPOLLRDHUP, .data.u64 = key };
    (void) epoll_ctl(set, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, descriptor, &event);
}

static inline void airlab_loop_unwatch(int set, int descriptor) {
    struct epoll_event event = { 0 };
    (void) epoll_ctl(set, EPOLL_CTL_DEL, descriptor, &event);
}

/// As `airlab_loop_wait`, with each key's events: bit 0 readable (or closed, or failed), bit 1 writable.
static inline int airlab_loop_wait_events(int set, uint64_t *keys, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready_events[64];
    int ready = epoll_wait(set, ready_events, capacity < 64 ? capacity : 64, timeout_ms);
    for (int index = 0; index < ready; index++) {
        keys[index] = ready_events[index].data.u64;
        uint32_t mask = ready_events[index].events;
        events[index] = ((mask & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ? 1u : 0u) | ((mask & EPOLLOUT) ? 2u : 0u);
    }
    return ready < 0 ? 0 : ready;
}

/// Accepts a connection, non-blocking and closed on exec (accept4 needs _GNU_SOURCE, which a header
/// Swift imports cannot set); -1 with errno.
static inline int airlab_accept(int listener, struct sockaddr_storage *peer, socklen_t *length) {
    *length = sizeof *peer;
    int socket = accept(listener, (struct sockaddr *) peer, length);
    if (socket < 0) return -1;
    (void) fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK);
    (void) fcntl(socket, F_SETFD, FD_CLOEXEC);
    return socket;
}

/// A connected pair of non-blocking local stream sockets, closed on exec; -1 with errno.
static inline int airlab_socket_pair(int ends[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ends);
}

static inline void airlab_loop_signal(int wake_up) {
    uint64_t one = 1;
    (void) write(wake_up, &one, sizeof one);
}

static inline void airlab_loop_drain(int wake_up) {
    uint64_t count;
    (void) read(wake_up, &count, sizeof count);
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
