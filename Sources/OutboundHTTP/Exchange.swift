import Foundation

/// One request and its answer, run start to end on a thread of its own: an idle connection from
/// the pool, or a new one to the first address that accepts (in order), TLS for `https`; send the
/// request whole, read the answer up to the cap; put the connection back when the answer leaves
/// it reusable, close it otherwise. Every wait is bounded by the request's deadline and woken by
/// cancellation.
struct Exchange: Sendable {
    let target: OutboundHTTPRequest.Target
    let bytes: [UInt8]
    let addresses: [IPAddress]
    let configuration: OutboundHTTPClient.Configuration
    let tls: TLSContext
    let pool: ConnectionPool
    let cancel: CancelSignal
    let bodyless: Bool

    func run() -> Result<OutboundHTTPResponse, OutboundHTTPError> {
        let deadline = ContinuousClock.now + .seconds(configuration.timeout)
        let destination = ConnectionPool.Destination(target)
        do throws(OutboundHTTPError) {
            if let idle = pool.take(destination, at: addresses) {
                idle.resume(cancel: cancel)
                var answered = false
                do throws(OutboundHTTPError) {
                    return .success(try exchange(over: idle, to: destination, until: deadline, answered: &answered))
                } catch  where error.code == .connectionLost && !answered {
                    // The server closed the idle connection as the request went out (its keep-alive
                    // timeout, a restart): the write failed, or the connection ended or was reset
                    // before a single byte of an answer. A server closing an idle connection has not
                    // read the request, so it goes once more on a fresh connection, as Go's
                    // net/http Transport does for a reused connection. Only once, and never after a
                    // fresh connection failed: that failure is the server's answer. (A server that
                    // read the request and then closed without a byte would see it twice; both
                    // callers tolerate that: a webhook carries its `webhook-id`, a Create Process
                    // whose answer is lost is reconciled by its reference.)
                } catch {
                    throw described(error, on: idle.socket)
                }
            }
            let socket = try connect(until: deadline)
            do throws(OutboundHTTPError) {
                let connection = try PooledConnection(socket: socket, target: target, tls: tls, until: deadline)
                var answered = false
                return .success(try exchange(over: connection, to: destination, until: deadline, answered: &answered))
            } catch {
                throw described(error, on: socket)
            }
        } catch {
            return .failure(error)
        }
    }

    /// A timeout names the host, the address and the whole call's bound.
    private func described(_ error: OutboundHTTPError, on socket: Socket) -> OutboundHTTPError {
        guard error.code == .timedOut else { return error }
        return OutboundHTTPError(
            .timedOut,
            "no complete answer from \(target.host) "
                + "(\(Socket.describe(socket.address, target.port))) within \(Self.seconds(configuration.timeout))")
    }

    /// Sends the request over `connection` and reads the answer; sets `answered` once a byte of
    /// it arrived. The connection goes back to the pool when the answer leaves it reusable.
    private func exchange(
        over connection: PooledConnection, to destination: ConnectionPool.Destination, until deadline: ContinuousClock.Instant,
        answered: inout Bool
    ) throws(OutboundHTTPError) -> OutboundHTTPResponse {
        let transport = connection.transport
        // A receiver may answer (and close) before reading the whole request: its answer counts.
        var writeFailure: OutboundHTTPError?
        do throws(OutboundHTTPError) {
            try transport.write(bytes, until: deadline)
        } catch  where error.code == .connectionLost {
            writeFailure = error
        }
        var parser = ResponseParser(
            maxHeadBytes: configuration.maxHeadBytes, maxBodyBytes: configuration.maxResponseBytes,
            bodyless: bodyless)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)
        defer { buffer.deallocate() }
        do throws(OutboundHTTPError) {
            while true {
                let count = try transport.read(into: buffer, until: deadline)
                if count > 0 { answered = true }
                let step =
                    count == 0 ? try parser.finish() : try parser.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if step == .complete { break }
            }
        } catch {
            throw writeFailure ?? error
        }
        guard let head = parser.head else {
            throw writeFailure ?? OutboundHTTPError(.connectionLost, "the connection closed before an answer")
        }
        // Reading stopped at the answer's end or at the cap. Anything but a whole answer on a
        // connection the server keeps (a cut body, an answer ended by the close, a request not
        // sent whole) closes the connection when the exchange releases it: no draining.
        if writeFailure == nil, parser.leavesConnectionReusable { pool.put(connection, destination) }
        return OutboundHTTPResponse(
            status: head.status, reason: head.reason, headers: head.headers,
            body: .init(parser.body), bodyTruncated: parser.truncated, address: connection.socket.address)
    }

    /// The first address that accepts, in order, each within the connect timeout.
    private func connect(until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) -> Socket {
        var failures: [String] = []
        for address in addresses {
            let connectDeadline = min(deadline, ContinuousClock.now + .seconds(configuration.connectTimeout))
            do throws(OutboundHTTPError) {
                return try Socket.connect(to: address, port: target.port, until: connectDeadline, cancel: cancel)
            } catch  where error.code == .cancelled {
                throw error
            } catch {
                failures.append(
                    "\(Socket.describe(address, target.port)) \(error.code == .timedOut ? "timed out" : error.message)")
            }
            if ContinuousClock.now >= deadline { break }
        }
        let reasons = failures.joined(separator: "; ")
        if ContinuousClock.now >= deadline {
            throw OutboundHTTPError(
                .timedOut, "could not connect to \(target.host) within \(Self.seconds(configuration.timeout)) (\(reasons))")
        }
        throw OutboundHTTPError(.connectFailed, "could not connect to \(target.host) (\(reasons))")
    }

    /// `15 s`, `0.3 s`.
    static func seconds(_ interval: Double) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}
