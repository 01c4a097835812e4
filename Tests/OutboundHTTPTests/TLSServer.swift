import COpenSSL
import Foundation

/// A test CA and a server certificate it signed (for `hooks.test` and `127.0.0.1`), made with
/// the `openssl` command in a temporary folder, and a server context using them.
final class TLSServer: @unchecked Sendable {
    let context: OpaquePointer
    let folder: URL
    /// The CA's certificate (PEM), which a client must trust.
    var caFile: String { folder.appendingPathComponent("ca.pem").path }

    /// Made once per test process.
    static let shared = Result { try TLSServer() }

    private init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbound-http-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.openssl(
            in: folder, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=OutboundHTTP Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
        try Self.openssl(
            in: folder, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "server.key", "-out", "server.pem", "-days", "2", "-subj", "/CN=hooks.test",
            "-CA", "ca.pem", "-CAkey", "ca.key",
            "-addext", "subjectAltName=DNS:hooks.test,IP:127.0.0.1", "-addext", "basicConstraints=CA:FALSE")
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSServerError("SSL_CTX_new failed") }
        self.context = context
        guard SSL_CTX_use_certificate_chain_file(context, folder.appendingPathComponent("server.pem").path) == 1,
            SSL_CTX_use_PrivateKey_file(context, folder.appendingPathComponent("server.key").path, SSL_FILETYPE_PEM) == 1
        else {
            throw TLSServerError("the server certificate or key did not load")
        }
    }

    deinit { SSL_CTX_free(context) }

    private static func openssl(in folder: URL, _ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TLSServerError(
                "openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}

struct TLSServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
