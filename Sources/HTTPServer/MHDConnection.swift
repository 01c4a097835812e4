import CMicroHTTPD
import Foundation

/// Reads request data from a libmicrohttpd connection handle; valid only inside MHD callbacks.
struct MHDConnection {
    let handle: OpaquePointer

    /// A header value by name (case-insensitive in MHD).
    func header(_ name: String) -> String? {
        MHD_lookup_connection_value(handle, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// All header fields in the order received.
    var headers: HTTPHeaders {
        HTTPHeaders(pairs(of: .HEADER_KIND).map { ($0.0, $0.1 ?? "") })
    }

    /// Query arguments, percent-decoded; undecodable ones are kept as sent.
    var queryItems: [URLQueryItem] {
        pairs(of: .GET_ARGUMENT_KIND).map { name, value in
            URLQueryItem(
                name: PercentDecoding.decode(name, plusAsSpace: true) ?? name,
                value: value.map { PercentDecoding.decode($0, plusAsSpace: true) ?? $0 }
            )
        }
    }

    /// The peer's numeric IP address.
    var remoteAddress: String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let status = buffer.withUnsafeMutableBufferPointer {
            htj_mhd_client_address(handle, $0.baseAddress, socklen_t($0.count))
        }
        guard status == 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Writes `response` as the connection's last answer, with `Connection: close`, straight to
    /// the socket (no MHD response object); true when all of it was written.
    func writeFinal(_ response: HTTPResponse, requestID: String) -> Bool {
        var head = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for field in response.headers where !["content-length", "connection", "x-request-id"].contains(field.name.lowercased()) {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\nX-Request-ID: \(requestID)\r\n\r\n"
        let bytes = Data(head.utf8) + response.body
        let written = bytes.withUnsafeBytes { htj_mhd_write_final(handle, $0.baseAddress, $0.count) }
        return written == bytes.count
    }

    private func pairs(of kind: MHD_ValueKind) -> [(String, String?)] {
        var result: [(String, String?)] = []
        withUnsafeMutablePointer(to: &result) { pointer in
            _ = MHD_get_connection_values_n(
                handle, kind,
                { context, _, key, keySize, value, valueSize in
                    guard let context, let key else { return .YES }
                    let pairs = context.assumingMemoryBound(to: [(String, String?)].self)
                    let name = Self.string(key, keySize)
                    pairs.pointee.append((name, value.map { Self.string($0, valueSize) }))
                    return .YES
                }, pointer)
        }
        return result
    }

    private static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
        return String(decoding: bytes, as: UTF8.self)
    }
}
