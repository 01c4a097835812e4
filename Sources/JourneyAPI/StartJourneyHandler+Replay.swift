import AccessControl
import HTTPServer

extension StartJourneyHandler {
    /// A start whose body validation now refuses (422): when its `Idempotency-Key` is already
    /// recorded, the key decides, as for any replay: the stored outcome for the same body (whose
    /// `deadline` may have passed since, or the deployment's limits changed), 422
    /// `idempotency_key_reused` for another. A key nobody recorded gets `refusal`: validation
    /// comes before the claim, so a body refused the first time never recorded its key.
    func replay(_ request: HTTPRequest, principal: Principal, refusedWith refusal: Problem) async throws -> HTTPResponse {
        guard let claim = try? Self.claim(request, principal: principal),
            try await idempotency.lookup(claim) != nil
        else { throw refusal }
        return try await idempotency.replay(claim, wait: dependencies.idempotencyWait, recover: recovery(actor: principal.actor))
    }
}
