import COpenSSL

/// TLS over a ``Socket``, through memory BIOs: OpenSSL never touches the descriptor (so no
/// `SIGPIPE`, and every wait is the socket's deadline- and cancel-aware `poll`); this type moves
/// bytes between the socket and OpenSSL.
///
/// The server's name (the URL's host) is sent as SNI and its certificate must be valid for it
/// (`SSL_set1_host`, no partial wildcards); an IP literal is checked against the certificate's
/// IP addresses instead, without SNI.
final class TLSConnection: Transport {
    private let ssl: OpaquePointer
    /// Ciphertext from the server, for OpenSSL to read (owned by `ssl`).
    private let incoming: OpaquePointer
    /// Ciphertext from OpenSSL, for the socket (owned by `ssl`).
    private let outgoing: OpaquePointer
    private let socket: Socket
    private let host: String
    /// The socket reached its end.
    private var socketClosed = false
    /// Ciphertext on its way between the socket and OpenSSL.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)

    /// Starts TLS on `socket` for `host` and completes the handshake before `deadline`.
    init(context: TLSContext, socket: Socket, host: String, until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        guard let ssl = SSL_new(context.context), let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            preconditionFailure("SSL_new failed: out of memory")
        }
        SSL_set_bio(ssl, incoming, outgoing)
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.socket = socket
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        self.host = name
        SSL_set_connect_state(ssl)
        if IPAddress(name) != nil {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1 else {
                throw OutboundHTTPError(.tlsFailed, "cannot verify a certificate for \(name)")
            }
        } else {
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            guard shim_SSL_set_tlsext_host_name(ssl, name) == 1, SSL_set1_host(ssl, name) == 1 else {
                throw OutboundHTTPError(.tlsFailed, "cannot verify a certificate for \(name)")
            }
        }
        try handshake(until: deadline)
    }

    deinit {
        SSL_free(ssl)
        buffer.deallocate()
    }

    private func handshake(until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        while true {
            ERR_clear_error()
            let result = SSL_do_handshake(ssl)
            try flush(until: deadline)
            if result == 1 { return }
            let error = SSL_get_error(ssl, result)
            if error == SSL_ERROR_WANT_READ, !socketClosed {
                try fill(until: deadline)
                continue
            }
            let verification = SSL_get_verify_result(ssl)
            if verification != Int(X509_V_OK) {
                let reason = String(cString: X509_verify_cert_error_string(verification))
                throw OutboundHTTPError(.tlsFailed, "the certificate of \(host) was refused: \(reason)")
            }
            if socketClosed || error == SSL_ERROR_ZERO_RETURN || error == SSL_ERROR_SYSCALL {
                throw OutboundHTTPError(.tlsFailed, "\(host) closed the connection during the TLS handshake")
            }
            throw OutboundHTTPError(.tlsFailed, "the TLS handshake with \(host) failed: \(Self.reason())")
        }
    }

    func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let count = min(bytes.count - offset, 16 << 10)
            let written = bytes[offset..<offset + count].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            try flush(until: deadline)
            if written > 0 {
                offset += Int(written)
                continue
            }
            let error = SSL_get_error(ssl, written)
            guard error == SSL_ERROR_WANT_READ, !socketClosed else {
                throw OutboundHTTPError(.connectionLost, "sending over TLS failed: \(Self.reason())")
            }
            try fill(until: deadline)
        }
    }

    func read(into destination: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant) throws(OutboundHTTPError)
        -> Int
    {
        while true {
            ERR_clear_error()
            let count = SSL_read(ssl, destination.baseAddress, Int32(clamping: destination.count))
            try flush(until: deadline)
            if count > 0 { return Int(count) }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ:
                // The socket's end without close_notify: the end of the answer; the parser judges
                // whether the answer was complete.
                if socketClosed { return 0 }
                try fill(until: deadline)
            case SSL_ERROR_ZERO_RETURN:
                return 0
            default:
                throw OutboundHTTPError(.connectionLost, "receiving over TLS failed: \(Self.reason())")
            }
        }
    }

    /// Reads ciphertext from the socket into OpenSSL; notes the socket's end.
    private func fill(until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        let count = try socket.read(into: buffer, until: deadline)
        guard count > 0 else {
            socketClosed = true
            return
        }
        _ = BIO_write(incoming, buffer.baseAddress, Int32(count))
    }

    /// Sends whatever OpenSSL wrote.
    private func flush(until deadline: ContinuousClock.Instant) throws(OutboundHTTPError) {
        while BIO_ctrl_pending(outgoing) > 0 {
            let count = BIO_read(outgoing, buffer.baseAddress, Int32(buffer.count))
            guard count > 0 else { return }
            try socket.write(Array(buffer[0..<Int(count)]), until: deadline)
        }
    }

    /// OpenSSL's reason for the last failure on this thread ("unknown" when it left none).
    static func reason() -> String {
        let code = ERR_get_error()
        guard code != 0, let text = ERR_reason_error_string(code) else { return "unknown TLS error" }
        return String(cString: text)
    }
}
