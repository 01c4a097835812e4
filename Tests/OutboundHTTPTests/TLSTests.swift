import Foundation
import OutboundHTTP
import Testing

/// `https`: the chain verified against the system's store plus a configured CA, the URL's host
/// name sent as SNI and checked against the certificate, while the connection goes to the
/// address the caller gave.
@Suite struct TLSTests {
    static let loopback = IPAddress("127.0.0.1")!

    func server() throws -> TLSServer { try TLSServer.shared.get() }

    func client(trusting server: TLSServer?) throws -> OutboundHTTPClient {
        let bundle = try server.map { try CertificateBundle(contentsOfFile: $0.caFile) }
        return OutboundHTTPClient(configuration: .init(timeout: 10, trustedCertificates: bundle))
    }

    func failure(_ client: OutboundHTTPClient, _ url: URL) async -> OutboundHTTPError? {
        do throws(OutboundHTTPError) {
            _ = try await client.send(OutboundHTTPRequest(method: "POST", url: url, body: Data("{}".utf8)), to: [Self.loopback])
            return nil
        } catch {
            return error
        }
    }

    @Test func aTrustedCertificateForTheURLsNameIsAcceptedAndTheNameSentAsSNI() async throws {
        let server = try server()
        let receiver = try ScriptedReceiver(tls: server) { $0.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { receiver.stop() }
        let request = OutboundHTTPRequest(
            method: "POST", url: receiver.url(scheme: "https", host: "hooks.test"), body: Data("{}".utf8))
        let answer = try await client(trusting: server).send(request, to: [Self.loopback])
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "ok")
        #expect(receiver.serverNames == ["hooks.test"])
        #expect(receiver.requests.first?.header("Host") == "hooks.test:\(receiver.port)")
        #expect(receiver.requests.first?.body == Array("{}".utf8))
    }

    @Test func sequentialRequestsShareOneTLSConnection() async throws {
        let server = try server()
        let receiver = try ScriptedReceiver(tls: server) { $0.answerEach("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        defer { receiver.stop() }
        let client = try client(trusting: server)
        for _ in 0..<3 {
            let request = OutboundHTTPRequest(url: receiver.url(scheme: "https", host: "hooks.test"))
            let answer = try await client.send(request, to: [Self.loopback])
            #expect(String(decoding: answer.body, as: UTF8.self) == "ok" && client.idleConnections == 1)
        }
        #expect(receiver.connections == 1 && receiver.requests.count == 3)
        #expect(receiver.serverNames == ["hooks.test"])
    }

    @Test func anIPLiteralIsCheckedAgainstTheCertificatesAddressesWithoutSNI() async throws {
        let server = try server()
        let receiver = try ScriptedReceiver(tls: server) { $0.answer("HTTP/1.1 204 No Content\r\n\r\n") }
        defer { receiver.stop() }
        let answer = try await client(trusting: server).send(
            OutboundHTTPRequest(url: receiver.url(scheme: "https")), to: [Self.loopback])
        #expect(answer.status == 204)
        #expect(receiver.serverNames == [nil])
    }

    @Test func aCertificateForAnotherNameIsRefusedSayingSo() async throws {
        let server = try server()
        let receiver = try ScriptedReceiver(tls: server)
        defer { receiver.stop() }
        let error = await failure(try client(trusting: server), receiver.url(scheme: "https", host: "other.test"))
        #expect(error == OutboundHTTPError(.tlsFailed, "the certificate of other.test was refused: hostname mismatch"))
        #expect(receiver.requests.isEmpty)
    }

    @Test func aCertificateFromAnUntrustedCAIsRefused() async throws {
        let server = try server()
        let receiver = try ScriptedReceiver(tls: server)
        defer { receiver.stop() }
        let error = await failure(try client(trusting: nil), receiver.url(scheme: "https", host: "hooks.test"))
        #expect(
            error
                == OutboundHTTPError(
                    .tlsFailed, "the certificate of hooks.test was refused: unable to get local issuer certificate"))
        #expect(receiver.requests.isEmpty)
    }

    @Test func aPlainHTTPAnswerToTLSIsAHandshakeFailure() async throws {
        let receiver = try ScriptedReceiver { connection in
            _ = connection.send(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { receiver.stop() }
        let error = await failure(try client(trusting: nil), receiver.url(scheme: "https", host: "hooks.test"))
        #expect(error?.code == .tlsFailed, "\(String(describing: error))")
    }

    @Test func aCAFileWithoutCertificatesIsRefusedNamingIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ca-\(UUID().uuidString).pem").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("not a certificate\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: OutboundHTTPError(.invalidConfiguration, "the CA file \(path) holds no PEM certificate")) {
            try CertificateBundle(contentsOfFile: path)
        }
        #expect(throws: OutboundHTTPError(.invalidConfiguration, "the CA file /nonexistent/ca.pem cannot be read")) {
            try CertificateBundle(contentsOfFile: "/nonexistent/ca.pem")
        }
        #expect(try CertificateBundle(contentsOfFile: try server().caFile).count == 1)
    }
}
