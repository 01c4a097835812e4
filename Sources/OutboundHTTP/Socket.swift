#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemConnect = Glibc.connect
#elseif canImport(Darwin)
private let systemConnect = Darwin.connect
#endif

/// A non-blocking TCP connection to one address; every wait is a `poll` bounded by a deadline
/// and woken by the current exchange's ``CancelSignal``. Used by one thread at a time (an idle
/// one waits in the client's ``ConnectionPool``); closed when released.
final class Socket: Transport {
    let descriptor: Int32
    let address: IPAddress
    let port: UInt16
    /// The signal of the exchange using the socket; nil while it waits idle in the pool.
    var cancel: CancelSignal?

    private init(descriptor: Int32, address: IPAddress, port: UInt16, cancel: CancelSignal) {
        self.descriptor = descriptor
        self.address = address
        self.port = port
        self.cancel = cancel
    }

    deinit { close(descriptor) }

    /// `address:port`, IPv6 in brackets.
    static func describe(_ address: IPAddress, _ port: UInt16) -> String {
        address.isIPv4 ? "\(address):\(port)" : "[\(address)]:\(port)"
    }

    /// Connects to `address`; `connect_failed` with the system's reason, `timed_out` past `deadline`.
    static func connect(
        to address: IPAddress, port: UInt16, until deadline: ContinuousClock.Instant,
        cancel: CancelSignal
    ) throws(OutboundHTTPError) -> Socket {
        let family = address.isIPv4 ? AF_INET : AF_INET6
        #if os(Linux)
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw OutboundHTTPError(.connectFailed, "no socket: \(Self.lastError())") }
        let socket = Socket(descriptor: descriptor, address: address, port: port, cancel: cancel)
        #if !os(Linux)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var noDelay: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let started = Self.withSocketAddress(address, port: port) { pointer, length in
            systemConnect(descriptor, pointer, length)
        }
        if started != 0 {
            guard errno == EINPROGRESS || errno == EINTR else {
                throw OutboundHTTPError(.connectFailed, Self.lastError())
            }
            try socket.wait(for: Int16(POLLOUT), until: deadline)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else {
                throw OutboundHTTPError(.connectFailed, Self.lastError())
            }
            guard failure == 0 else { throw OutboundHTTPError(.connectFailed, String(cString: strerror(failure))) }
        }
        return socket
    }

    /// Sends every byte; `connection_lost` when the peer is gone, `timed_out` past `deadline`.
    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress, raw.count, Self.sendFlags)
            }
            if sent >= 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), until: deadline)
            } else if errno != EINTR {
                throw OutboundHTTPError(.connectionLost, "sending failed: \(Self.lastError())")
            }
        }
    }

    /// Reads what is there (waiting for something), 0 at the connection's end.
    func read(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant) throws(OutboundHTTPError)
        -> Int
    {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), until: deadline)
            } else if errno != EINTR {
                throw OutboundHTTPError(.connectionLost, "receiving failed: \(Self.lastError())")
            }
        }
    }

    /// Waits until `events` may proceed; `cancelled` when the signal fires, `timed_out` past `deadline`.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        var watched = [pollfd(fd: descriptor, events: events, revents: 0)]
        if let cancel { watched.append(pollfd(fd: cancel.readEnd, events: Int16(POLLIN), revents: 0)) }
        while true {
            if cancel?.isFired == true { throw OutboundHTTPError(.cancelled, "the request was cancelled") }
            let timeout = Self.milliseconds(until: deadline)
            guard timeout > 0 else { throw OutboundHTTPError(.timedOut, "timed out") }
            let ready = poll(&watched, nfds_t(watched.count), timeout)
            if ready < 0, errno != EINTR {
                throw OutboundHTTPError(.connectionLost, "poll failed: \(Self.lastError())")
            }
            if ready > 0, watched.count > 1, watched[1].revents != 0 {
                throw OutboundHTTPError(.cancelled, "the request was cancelled")
            }
            // An error or hang-up is ready too: the next call reports it.
            if ready > 0, watched[0].revents != 0 { return }
        }
    }

    /// Whether the peer has neither closed the connection nor sent anything since the last answer:
    /// an idle connection that fails this (its server closed it, or sent stray bytes) is not reused.
    var isQuiet: Bool {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) == 0
    }

    /// Whole milliseconds left until `deadline`, rounded up; 0 when past.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    static func withSocketAddress<Result>(
        _ address: IPAddress, port: UInt16,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        if address.isIPv4 {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var socketAddress = sockaddr_in6()
        socketAddress.sin6_family = sa_family_t(AF_INET6)
        socketAddress.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address.bytes) }
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
    }

    #if os(Linux)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let sendFlags: Int32 = 0
    #endif

    static func lastError() -> String { String(cString: strerror(errno)) }
}
