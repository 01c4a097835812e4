import Foundation

/// One request and its answer, run start to end on a thread of its own: connect to the first
/// address that accepts (in order), TLS for `https`, send the request whole, read the answer up
/// to the cap, close. Every wait is bounded by the request's deadline and woken by cancellation.
struct Exchange: Sendable {
    let target: OutboundHTTPRequest.Target
    let bytes: [UInt8]
    let addresses: [IPAddress]
    let configuration: OutboundHTTPClient.Configuration
    let tls: TLSContext
    let cancel: CancelSignal
    let bodyless: Bool

    func run() -> Result<OutboundHTTPResponse, OutboundHTTPError> {
        let deadline = ContinuousClock.now + .seconds(configuration.timeout)
        do throws(OutboundHTTPError) {
            let socket = try connect(until: deadline)
            do throws(OutboundHTTPError) {
                return .success(try exchange(over: socket, until: deadline))
            } catch  where error.code == .timedOut {
                throw OutboundHTTPError(
                    .timedOut,
                    "no complete answer from \(target.host) "
                        + "(\(Socket.describe(socket.address, target.port))) within \(Self.seconds(configuration.timeout))")
            }
        } catch {
            return .failure(error)
        }
    }

    private func exchange(over socket: Socket, until deadline: ContinuousClock.Instant) throws(OutboundHTTPError)
        -> OutboundHTTPResponse
    {
        let transport: any Transport =
            target.secure
            ? try TLSConnection(context: tls, socket: socket, host: target.host, until: deadline) : socket
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
                let step =
                    count == 0 ? try parser.finish() : try parser.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if step == .complete { break }
            }
        } catch {
            throw writeFailure ?? error
        }
        // Reading stops at the answer's end or at the cap; the caller's release of the socket closes it.
        guard let head = parser.head else {
            throw writeFailure ?? OutboundHTTPError(.connectionLost, "the connection closed before an answer")
        }
        return OutboundHTTPResponse(
            status: head.status, reason: head.reason, headers: head.headers,
            body: .init(parser.body), bodyTruncated: parser.truncated, address: socket.address)
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
