import Foundation
import OutboundWebhooks
import Testing

@Suite struct SignatureTests {
    let secret = WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!
    let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    let timestamp: Int64 = 1614265330
    let body = Data(#"{"test": 2432232314}"#.utf8)
    var at: Date { Date(timeIntervalSince1970: Double(timestamp)) }

    @Test func specVector() {
        let signer = StandardWebhookSigner(secret: secret)
        #expect(signer.signature(id: id, timestamp: timestamp, body: body) == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func verifierAcceptsTheSpecVectorAmongOtherSignatures() throws {
        let headers = [
            "Webhook-Id": id, "Webhook-Timestamp": String(timestamp),
            "Webhook-Signature": "v1,Zm9vYmFy v2,abc v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
        ]
        try StandardWebhookVerifier(secret: secret).verify(body: body, headers: headers, now: at.addingTimeInterval(299))
    }

    @Test func verifierRejects() {
        let signed = StandardWebhookSigner(secret: secret).headers(id: id, timestamp: timestamp, body: body)
        let verifier = StandardWebhookVerifier(secret: secret)
        func code(_ body: Data, _ headers: [String: String], _ now: Date, secret: WebhookSecret? = nil)
            -> WebhookVerificationError.Code?
        {
            do {
                try StandardWebhookVerifier(secret: secret ?? verifier.secret).verify(body: body, headers: headers, now: now)
                return nil
            } catch { return error.code }
        }
        #expect(code(body, signed, at) == nil)
        #expect(code(body, signed, at, secret: WebhookSecret.generate()) == .noMatchingSignature)
        #expect(code(Data(#"{"test": 2432232315}"#.utf8), signed, at) == .noMatchingSignature)
        #expect(code(body, signed, at.addingTimeInterval(301)) == .timestampTooOld)
        #expect(code(body, signed, at.addingTimeInterval(-301)) == .timestampTooNew)
        for missing in signed.keys {
            var headers = signed
            headers[missing] = nil
            #expect(code(body, headers, at) == .missingHeaders)
        }
        var badTimestamp = signed
        badTimestamp["webhook-timestamp"] = "soon"
        #expect(code(body, badTimestamp, at) == .invalidTimestamp)
    }

    @Test func secretsParseAndRedact() {
        #expect(WebhookSecret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)
        #expect(WebhookSecret("whsec_!!!") == nil)
        let generated = WebhookSecret.generate()
        #expect(generated.key.count == 32)
        #expect(WebhookSecret(generated.text) == generated)
        #expect(!"\(generated)".contains(generated.text))
    }

    @Test func retrySchedule() {
        let schedule = WebhookRetrySchedule()
        #expect(schedule.intervals.reduce(0, +) >= 72 * 3600)
        #expect(schedule.maxAttempts == 11)
        #expect(schedule.delay(afterAttempt: 1, random: 0.5) == 2.5)
        #expect(schedule.delay(afterAttempt: 2, random: 0.999) <= 300)
        #expect(schedule.delay(afterAttempt: 1, random: 0) == 1)
        #expect(schedule.delay(afterAttempt: 1, random: 0.5, retryAfter: 120) == 120)
        #expect(schedule.delay(afterAttempt: 50, random: 1) == 86400)
        let created = Date(timeIntervalSince1970: 0)
        #expect(!schedule.shouldGiveUp(attempts: 11, createdAt: created, now: created.addingTimeInterval(71 * 3600)))
        #expect(schedule.shouldGiveUp(attempts: 11, createdAt: created, now: created.addingTimeInterval(72 * 3600)))
        #expect(!schedule.shouldGiveUp(attempts: 10, createdAt: created, now: created.addingTimeInterval(100 * 3600)))
    }
}
