import Cryptography
import Foundation
import JourneyDomain

/// Derives a subject's pseudonymous ``SubjectReference``: HMAC-SHA256 of document type and
/// normalized document number under the subject-reference key, as 64 lowercase hex characters.
///
/// Stable for a given key; without the key it cannot be reversed, nor recomputed by guessing
/// document numbers (CPFs are few enough to enumerate, so a plain hash would not do).
///
/// A tenant other than the default one hashes its name in as well: one person known to two
/// tenants is two subjects there, each with its own data key, so one tenant's erasure or export
/// never reaches the other's journeys. The default tenant's references are those of before tenants.
public struct SubjectReferencer: Sendable {
    let key: SecretKey

    public init(key: SecretKey) {
        self.key = key
    }

    public init(configuration: PrivacyConfiguration) {
        self.init(key: configuration.subjectReferenceKey)
    }

    /// The reference of the subject holding document `documentNumber` of `documentType` in
    /// `tenant` (nil: the default tenant).
    ///
    /// Throws `invalid_document_number` when the number has no letters or digits.
    public func reference(documentType: DocumentType, documentNumber: String, tenant: String? = nil) throws
        -> SubjectReference
    {
        let number = Self.normalize(documentNumber: documentNumber)
        guard !number.isEmpty else {
            throw PrivacyError(.invalidDocumentNumber, "the document number has no letters or digits")
        }
        let framed =
            if let tenant, tenant != JourneyStarted.defaultTenant {
                Framing.frame("journeys.subject-ref.tenant.v1", tenant, documentType.rawValue, number)
            } else {
                Framing.frame("journeys.subject-ref.v1", documentType.rawValue, number)
            }
        return SubjectReference(Hex.encode(HMACSHA256.authenticate(framed, key: key.bytes)))
    }

    /// The reference of a validated subject in `tenant` (nil: the default tenant).
    public func reference(for subject: ValidatedSubject, tenant: String? = nil) throws -> SubjectReference {
        try reference(documentType: subject.documentType, documentNumber: subject.documentNumber, tenant: tenant)
    }

    /// The document number as it is hashed: compatibility-normalized (NFKC, so full-width
    /// digits count as digits), then only the ASCII letters and digits, letters upper-cased.
    ///
    /// Punctuation and spaces are formatting: `123.456.789-09` and `12345678909` are one CPF.
    /// Leading zeros are kept: `012...` and `12...` differ. The document type is hashed as is.
    public static func normalize(documentNumber: String) -> String {
        var bytes: [UInt8] = []
        for scalar in documentNumber.precomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A: bytes.append(UInt8(scalar.value))
            case 0x61...0x7A: bytes.append(UInt8(scalar.value - 0x20))
            default: continue
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
