import Foundation
import JourneyDomain
import JourneyEngine

// Domain builders for tests that drive the engine's commands directly (no API, no Unico).

/// A stand-in sealed field: not encrypted, for tests that never open it.
public func sealed(_ label: String) -> SealedField {
    SealedField(ciphertext: Data("sealed:\(label)".utf8).base64EncodedString(), keyID: "k1")
}

/// The commands of a journey that is approved on its second attempt: start, process created,
/// token issued, capture opened, SDK error callback (retry scheduled), a token request that
/// starts attempt 2, its process, token, capture, success callback, approved result.
public func approvedOnSecondAttempt(_ id: JourneyID) -> [JourneyCommand] {
    let first = ProcessID("proc-\(id.rawValue)-1")
    let second = ProcessID("proc-\(id.rawValue)-2")
    return [
        .start(
            StartJourney(
                journeyID: id, environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
                subject: SealedSubject(
                    reference: SubjectReference("ref-\(id.rawValue)"), documentType: .brCPF,
                    documentNumber: sealed("12345678909"), name: sealed("Maria Silva")),
                clientReference: "order-1")),
        .recordProcessCreated(
            ProcessCreation(
                attempt: 1, processID: first, webAppToken: sealed("wat-1"),
                processToken: nil, link: nil, tokenExpiresAt: nil)),
        .issueToken,
        .recordCaptureOpened(attempt: 1),
        .recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)),
        .issueToken,
        .recordProcessCreated(
            ProcessCreation(
                attempt: 2, processID: second, webAppToken: sealed("wat-2"),
                processToken: nil, link: nil, tokenExpiresAt: nil)),
        .issueToken,
        .recordCaptureOpened(attempt: 2),
        .recordCallback(attempt: 2, outcome: .success(processID: second)),
        .recordResult(
            attempt: 2,
            snapshot: ProcessSnapshot(
                state: .finished, result: .ok, humanToken: sealed("ht"),
                finishedAt: Date())),
    ]
}
