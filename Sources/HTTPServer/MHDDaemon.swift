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
                per_address_limit: UInt32(clamping: configuration.connectionLimitPerAddress),
                connection_timeout: configuration.connectionTimeoutSeconds,
                thread_pool_size: UInt32(clamping: configuration.threadPoolSize),
                listen_backlog: 1024,
                memory_limit: configuration.headerMemory,
                notify_connection: dispatcher.headDeadlines == nil ? nil : MHDDaemon.connectionCallback,
                notify_connection_cls: target
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
        guard let target, let connection,
              let deadlines = Unmanaged<RequestDispatcher>.fromOpaque(target).takeUnretainedValue().headDeadlines
        else { return }
        switch event {
        case .CONNECTION_NOTIFY_STARTED: deadlines.opened(connection)
        default: deadlines.closed(connection)
        }
    }
}
