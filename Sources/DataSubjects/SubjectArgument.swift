import Foundation
import JourneyDomain
import Privacy

/// Parses what a caller names a subject by: a pseudonymous reference or a CPF/CNPJ, telling
/// one from the other so that a mix-up is a clear error rather than a silent miss.
public enum SubjectArgument {
    /// Characters a formatted document number may hold besides digits (`123.456.789-09`, `12.345.678/0001-95`).
    static let documentPunctuation: Set<Character> = [".", "-", "/", " "]

    /// A subject reference: 64 hexadecimal characters (upper case is accepted and lowered).
    ///
    /// A CPF or CNPJ, formatted or not, is refused with `document_given_as_reference`.
    public static func reference(_ text: String, field: String = "reference") throws -> SubjectReference {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if looksLikeDocument(trimmed) {
            throw DataSubjectsError(
                .documentGivenAsReference,
                "\(field) looks like a document number, not a subject reference; turn it into one with "
                    + "'journeys subjects find --document' (GET /v1/subjects?document=)", field: field)
        }
        let lowered = trimmed.lowercased()
        guard lowered.count == 64, lowered.unicodeScalars.allSatisfy(isHex) else {
            throw DataSubjectsError(
                .invalidSubjectReference,
                "\(field) must be a subject reference: 64 hexadecimal characters", field: field)
        }
        return SubjectReference(lowered)
    }

    /// The document type and number of a CPF or CNPJ, inferred from its digits (11 or 14) unless
    /// `type` is given (`cpf`, `cnpj` or a DUI type such as `DUI_TYPE_BR_CPF`).
    ///
    /// A subject reference is refused with `reference_given_as_document`; errors never repeat the number.
    public static func document(
        _ text: String, type: String?, field: String = "document",
        typeField: String = "documentType"
    ) throws -> (DocumentType, String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if lowered.count == 64, lowered.unicodeScalars.allSatisfy(isHex), !lowered.allSatisfy(\.isNumber) {
            throw DataSubjectsError(
                .referenceGivenAsDocument,
                "\(field) looks like a subject reference, not a document number; use it directly with "
                    + "'journeys subjects export' or 'erase'", field: field)
        }
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || documentPunctuation.contains($0)) })
        else {
            throw DataSubjectsError(
                .invalidDocument, "\(field) must be a CPF or CNPJ: digits, optionally with . - / separators",
                field: field)
        }
        let digits = SubjectReferencer.normalize(documentNumber: trimmed)
        let documentType: DocumentType
        switch type?.lowercased() {
        case nil:
            switch digits.count {
            case FieldRules.cpfLength: documentType = .brCPF
            case FieldRules.cnpjLength: documentType = .brCNPJ
            default:
                throw DataSubjectsError(
                    .invalidDocument,
                    "\(field) must have 11 digits (CPF) or 14 digits (CNPJ); give \(typeField) for other documents",
                    field: field)
            }
        case "cpf": documentType = .brCPF
        case "cnpj": documentType = .brCNPJ
        default:
            guard let type, case .success(let parsed) = FieldRules.documentType(type, field: typeField) else {
                throw DataSubjectsError(
                    .invalidDocument, "\(typeField) must be cpf, cnpj or a DUI type such as DUI_TYPE_BR_CPF",
                    field: typeField)
            }
            documentType = parsed
        }
        if case .failure(let issue) = FieldRules.documentNumber(digits, type: documentType, field: field) {
            throw DataSubjectsError(.invalidDocument, issue.message, field: field)
        }
        return (documentType, digits)
    }

    /// Digits with optional document punctuation, 11 or 14 digits in all.
    static func looksLikeDocument(_ text: String) -> Bool {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || documentPunctuation.contains($0)) }) else {
            return false
        }
        let digits = text.filter(\.isNumber).count
        return digits == FieldRules.cpfLength || digits == FieldRules.cnpjLength
    }

    static func isHex(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
    }
}
