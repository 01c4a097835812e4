import COpenSSL
import Foundation

/// PEM certificates trusted for `https` besides the system's store: a private CA, or a test's.
public struct CertificateBundle: Sendable, Equatable {
    /// The PEM text as read.
    public let pem: Data
    /// How many certificates it holds (at least one).
    public let count: Int

    /// Reads `pem`; `invalid_configuration` when it holds no certificate.
    public init(pem: Data) throws(OutboundHTTPError) {
        self.pem = pem
        let certificates = Self.parse(pem)
        defer { certificates.forEach { X509_free($0) } }
        guard !certificates.isEmpty else {
            throw OutboundHTTPError(.invalidConfiguration, "the CA bundle holds no PEM certificate")
        }
        count = certificates.count
    }

    /// Reads the PEM file at `path`; `invalid_configuration` naming the path when it cannot be read
    /// or holds no certificate.
    public init(contentsOfFile path: String) throws(OutboundHTTPError) {
        guard let pem = FileManager.default.contents(atPath: path) else {
            throw OutboundHTTPError(.invalidConfiguration, "the CA file \(path) cannot be read")
        }
        do {
            try self.init(pem: pem)
        } catch {
            throw OutboundHTTPError(.invalidConfiguration, "the CA file \(path) holds no PEM certificate")
        }
    }

    /// The certificates, each to be freed with `X509_free` by the caller.
    func certificates() -> [OpaquePointer] { Self.parse(pem) }

    private static func parse(_ pem: Data) -> [OpaquePointer] {
        pem.withUnsafeBytes { raw -> [OpaquePointer] in
            guard let base = raw.baseAddress, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return [] }
            defer { BIO_free(bio) }
            var certificates: [OpaquePointer] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(certificate)
            }
            ERR_clear_error()  // the read past the last one leaves "no start line"
            return certificates
        }
    }
}
