/// An open connection a request goes over: the socket, and TLS over it for `https`. Used by one
/// exchange at a time; between two it waits in the client's ``ConnectionPool``, whose lock hands
/// it from the thread that finished with it to the next one (hence `@unchecked Sendable`).
final class PooledConnection: @unchecked Sendable {
    let socket: Socket
    /// The socket itself (`http`) or TLS over it (`https`).
    let transport: any Transport

    /// A fresh connection over `socket`, after the TLS handshake for `https`.
    init(
        socket: Socket, target: OutboundHTTPRequest.Target, tls: TLSContext, until deadline: ContinuousClock.Instant
    ) throws(OutboundHTTPError) {
        self.socket = socket
        transport = target.secure ? try TLSConnection(context: tls, socket: socket, host: target.host, until: deadline) : socket
    }

    /// Hands it, taken from the pool, to the exchange that `cancel` belongs to.
    func resume(cancel: CancelSignal) { socket.cancel = cancel }

    /// Detaches it from its exchange before it goes idle.
    func suspend() { socket.cancel = nil }
}
