#pragma once
#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/// Leaves URL paths and query arguments percent-encoded so Swift can decode them per segment.
static inline size_t htj_mhd_unescape_nothing(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

/// Settings for `htj_mhd_start`; plain values so Swift can fill it without C varargs.
struct htj_mhd_settings {
    const char *host;                 /* numeric IPv4 or IPv6 address */
    uint16_t port;                    /* 0 picks a free port */
    unsigned int connection_limit;
    unsigned int per_address_limit;   /* connections per client IP address, 0 = no limit */
    unsigned int connection_timeout;  /* seconds, 0 disables */
    unsigned int thread_pool_size;    /* 0 or 1: the single internal polling thread */
    unsigned int listen_backlog;
    size_t memory_limit;              /* bytes per connection, 0 keeps MHD's default */
    MHD_NotifyConnectionCallback notify_connection;  /* NULL: none */
    void *notify_connection_cls;
    MHD_AcceptPolicyCallback accept_policy;           /* NULL: accept every connection */
    void *accept_policy_cls;
};

/// Starts an epoll daemon with internal polling threads and suspend/resume enabled.
///
/// Returns NULL when the host is not a numeric address or MHD refuses to start.
static inline struct MHD_Daemon *htj_mhd_start(
    const struct htj_mhd_settings *settings,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls
) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *address;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, settings->host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(settings->port);
        address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, settings->host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(settings->port);
        address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *)address },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)htj_mhd_unescape_nothing, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t)settings->connection_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)settings->connection_timeout, NULL },
        { MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)settings->listen_backlog, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)settings->per_address_limit, NULL },
        { settings->notify_connection != NULL ? MHD_OPTION_NOTIFY_CONNECTION : MHD_OPTION_LISTEN_BACKLOG_SIZE,
          settings->notify_connection != NULL ? (intptr_t)settings->notify_connection : (intptr_t)settings->listen_backlog,
          settings->notify_connection != NULL ? settings->notify_connection_cls : NULL },
        { settings->memory_limit > 0 ? MHD_OPTION_CONNECTION_MEMORY_LIMIT : MHD_OPTION_LISTEN_BACKLOG_SIZE,
          settings->memory_limit > 0 ? (intptr_t)settings->memory_limit : (intptr_t)settings->listen_backlog, NULL },
        { settings->thread_pool_size > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
          (intptr_t)settings->thread_pool_size, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, settings->port, settings->accept_policy, settings->accept_policy_cls,
                            handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon's listen socket is bound to, or 0 when unknown.
static inline uint16_t htj_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Writes the client's numeric address into `buffer`; returns 0 on success, -1 otherwise.
static inline int htj_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t length) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *raw;
    if (address->sa_family == AF_INET) {
        raw = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (address->sa_family == AF_INET6) {
        raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
    } else {
        return -1;
    }
    return inet_ntop(address->sa_family, raw, buffer, length) == NULL ? -1 : 0;
}


/// Writes `length` bytes straight to the connection's socket without blocking; returns the bytes
/// written or -1. Only for a last answer before the connection is closed (MHD 0.9.75 cannot
/// queue a response while a request body is still arriving).
static inline ssize_t htj_mhd_write_final(struct MHD_Connection *connection, const void *bytes, size_t length) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return -1;
    return send(info->connect_fd, bytes, length, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/// The connection's socket, or -1 when MHD does not say.
static inline int htj_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Shuts both directions of a socket down without closing it; MHD sees the end and closes the
/// connection on its own thread.
static inline void htj_shutdown_socket(int fd) {
    shutdown(fd, SHUT_RDWR);
}

/// The key the per-address connection limit counts a client under: returns 4 with the IPv4
/// address in `key`, 6 with the IPv6 address's /64 prefix (one customer's allocation; an
/// IPv4-mapped IPv6 address counts as IPv4), or 0 for any other family.
static inline int htj_address_key(const struct sockaddr *address, uint64_t *key) {
    if (address == NULL) return 0;
    if (address->sa_family == AF_INET) {
        *key = ntohl(((const struct sockaddr_in *)address)->sin_addr.s_addr);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        const struct in6_addr *raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
        const uint8_t *bytes = raw->s6_addr;
        uint64_t value = 0;
        if (IN6_IS_ADDR_V4MAPPED(raw)) {
            for (int i = 12; i < 16; i++) value = (value << 8) | bytes[i];
            *key = value;
            return 4;
        }
        for (int i = 0; i < 8; i++) value = (value << 8) | bytes[i];
        *key = value;
        return 6;
    }
    return 0;
}

/// `htj_address_key` of the connection's peer.
static inline int htj_mhd_client_key(struct MHD_Connection *connection, uint64_t *key) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? 0 : htj_address_key(info->client_addr, key);
}

/// `htj_address_key` of a numeric IPv4 or IPv6 address; 0 when it is neither.
static inline int htj_numeric_address_key(const char *text, uint64_t *key) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, text, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        return htj_address_key((const struct sockaddr *)&v4, key);
    }
    if (inet_pton(AF_INET6, text, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        return htj_address_key((const struct sockaddr *)&v6, key);
    }
    return 0;
}
