// libmicrohttpd's functions, loaded on first use (loader.h): the ones HTTP calls, with libmicrohttpd
// 0.9.75's prototypes. Loading it also loads GnuTLS, whose start-up work every process paid before.
#include "COnDemand.h"
#include "loader.h"

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <microhttpd.h>

#define MHD_FUNCTIONS(X) \
    X(enum MHD_Result, MHD_add_connection, \
        (struct MHD_Daemon *daemon, MHD_socket client_socket, const struct sockaddr *addr, socklen_t addrlen), \
        (daemon, client_socket, addr, addrlen)) \
    X(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content), \
        (response, header, content)) \
    X(struct MHD_Response *, MHD_create_response_for_upgrade, (MHD_UpgradeHandler upgrade_handler, void *upgrade_handler_cls), \
        (upgrade_handler, upgrade_handler_cls)) \
    X(struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), \
        (size, buffer, mode)) \
    X(struct MHD_Response *, MHD_create_response_from_callback, \
        (uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls, MHD_ContentReaderFreeCallback crfc), \
        (size, block_size, crc, crc_cls, crfc)) \
    X(int, MHD_digest_auth_check2, \
        (struct MHD_Connection *connection, const char *realm, const char *username, const char *password, unsigned int nonce_timeout, \
            enum MHD_DigestAuthAlgorithm algo), \
        (connection, realm, username, password, nonce_timeout, algo)) \
    X(int, MHD_get_connection_values, \
        (struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator, void *iterator_cls), \
        (connection, kind, iterator, iterator_cls)) \
    X(const char *, MHD_get_reason_phrase_for, (unsigned int code), (code)) \
    X(enum MHD_Result, MHD_get_timeout, (struct MHD_Daemon *daemon, MHD_UNSIGNED_LONG_LONG *timeout), (daemon, timeout)) \
    X(enum MHD_Result, MHD_queue_auth_fail_response2, \
        (struct MHD_Connection *connection, const char *realm, const char *opaque, struct MHD_Response *response, int signal_stale, \
            enum MHD_DigestAuthAlgorithm algo), \
        (connection, realm, opaque, response, signal_stale, algo)) \
    X(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response), \
        (connection, status_code, response)) \
    X(enum MHD_Result, MHD_run, (struct MHD_Daemon *daemon), (daemon))

#define MHD_PROCEDURES(X) \
    X(MHD_destroy_response, (struct MHD_Response *response), (response)) \
    X(MHD_resume_connection, (struct MHD_Connection *connection), (connection)) \
    X(MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon)) \
    X(MHD_suspend_connection, (struct MHD_Connection *connection), (connection))

// The variadic ones: MHD_start_daemon goes on to its va_list form; the information and upgrade calls
// are only asked what takes no argument after the kind (the bound port, the connection's socket and
// context, closing an upgraded connection), so nothing follows it.
#define MHD_VARIADIC(X) \
    X(struct MHD_Daemon *, MHD_start_daemon_va, \
        (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, \
            va_list ap)) \
    X(const union MHD_ConnectionInfo *, MHD_get_connection_info, (struct MHD_Connection *connection, enum MHD_ConnectionInfoType info_type, ...)) \
    X(const union MHD_DaemonInfo *, MHD_get_daemon_info, (struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...)) \
    X(enum MHD_Result, MHD_upgrade_action, (struct MHD_UpgradeResponseHandle *urh, enum MHD_UpgradeAction action, ...))

static const char *const libraries[] = {"libmicrohttpd.so.12"};

ONDEMAND_LIBRARY(MHD_FUNCTIONS, MHD_PROCEDURES, MHD_VARIADIC, COnDemand_microhttpdFailure)

struct MHD_Daemon *MHD_start_daemon(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    ondemand_require(&state, load);
    va_list options;
    va_start(options, dh_cls);
    struct MHD_Daemon *daemon = real.MHD_start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, options);
    va_end(options);
    return daemon;
}

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection, enum MHD_ConnectionInfoType info_type, ...) {
    ondemand_require(&state, load);
    return real.MHD_get_connection_info(connection, info_type);
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
    ondemand_require(&state, load);
    return real.MHD_get_daemon_info(daemon, info_type);
}

enum MHD_Result MHD_upgrade_action(struct MHD_UpgradeResponseHandle *urh, enum MHD_UpgradeAction action, ...) {
    ondemand_require(&state, load);
    return real.MHD_upgrade_action(urh, action);
}
