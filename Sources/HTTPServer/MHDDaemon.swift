import CMicroHTTPD

/// Owns one running libmicrohttpd daemon and the dispatcher its callbacks reach.
final class MHDDaemon: @unchecked Sendable {
    let dispatcher: RequestDispatcher
    /// The port the listen socket is bound to.
    let port: Int
    private let handle: OpaquePointer
    private var stopped = false

    /// Binds and starts the polling threads; throws `start_failed` when MHD refuses.
    init(configuration: HTTPServer.Configuration, dispatcher: RequestDispatcher) throws(HTTPServerError) {
        self.dispatcher = dispatcher
        let target = Unmanaged.passUnretained(dispatcher).toOpaque()
        let started = configuration.numericHost.withCString { host in
            var settings = htj_mhd_settings(
                host: host,
                port: UInt16(configuration.port),
                connection_limit: UInt32(clamping: configuration.connectionLimit),
                per_address_limit: 0,  // counted per IPv4 address or IPv6 /64 by `ConnectionsPerAddress`
                connection_timeout: configuration.connectionTimeoutSeconds,
                thread_pool_size: UInt32(clamping: configuration.threadPoolSize),
                listen_backlog: 1024,
                memory_limit: configuration.headerMemory,
                notify_connection: dispatcher.deadlines == nil && dispatcher.addressLimit == nil
                    ? nil : MHDDaemon.connectionCallback,
                notify_connection_cls: target,
                accept_policy: dispatcher.addressLimit == nil ? nil : MHDDaemon.acceptCallback,
                accept_policy_cls: target
            )
            return htj_mhd_start(&settings, MHDDaemon.accessCallback, target, MHDDaemon.completedCallback, target)
        }
        guard let started else {
            throw HTTPServerError(
                code: .startFailed,
                message: "libmicrohttpd could not listen on \(configuration.host):\(configuration.port) "
                    + "(port taken, or host not a numeric address)"
            )
        }
        handle = started
        port = Int(htj_mhd_bound_port(started))
    }

    /// Answers requests that arrive from now on with 503 and `Connection: close`; requests already
    /// with the router keep running.
    ///
    /// Not `MHD_quiesce_daemon`: in 0.9.75 with epoll it races the polling thread over the listen
    /// socket's epoll registration and aborts the process ("Failed to remove listen FD from epoll
    /// set"), which CI hit. The listen socket stays open until `stop`.
    func drain() {
        dispatcher.beginDraining()
    }

    /// Resumes any still-suspended connection, closes every connection and joins MHD's threads.
    func stop() {
        guard !stopped else { return }
        stopped = true
        dispatcher.abandonSuspended()
        MHD_stop_daemon(handle)
    }

    /// A server dropped without `shutdown()` still releases its port and threads.
    deinit {
        stop()
    }

    private static let accessCallback: MHD_AccessHandlerCallback = {
        target, connection, url, method, _, uploadData, uploadDataSize, slot in
        guard let target, let connection, let url, let method, let uploadDataSize, let slot else { return .NO }
        return Unmanaged<RequestDispatcher>.fromOpaque(target).takeUnretainedValue().access(
            connection: connection, url: url, method: method,
            uploadData: uploadData, uploadDataSize: uploadDataSize, slot: slot
        )
    }

    private static let completedCallback: MHD_RequestCompletedCallback = { target, connection, slot, termination in
        guard let target, let slot else { return }
        Unmanaged<RequestDispatcher>.fromOpaque(target).takeUnretainedValue()
            .completed(connection: connection, slot: slot, termination: termination)
    }

    private static let connectionCallback: MHD_NotifyConnectionCallback = { target, connection, _, event in
        guard let target, let connection else { return }
        let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(target).takeUnretainedValue()
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            dispatcher.addressLimit?.opened(connection)
            dispatcher.deadlines?.opened(connection)
        default:
            dispatcher.deadlines?.closed(connection)
            dispatcher.addressLimit?.closed(connection)
        }
    }

    private static let acceptCallback: MHD_AcceptPolicyCallback = { target, address, _ in
        guard let target else { return .YES }
        let limit = Unmanaged<RequestDispatcher>.fromOpaque(target).takeUnretainedValue().addressLimit
        return limit?.admits(address) == false ? .NO : .YES
    }
}
