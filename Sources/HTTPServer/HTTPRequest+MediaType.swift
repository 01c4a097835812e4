import Foundation

extension HTTPRequest {
    /// The `Content-Type` without parameters, lower-cased (`application/json; charset=utf-8` →
    /// `application/json`); nil when absent.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Throws 415 `unsupported_media_type` unless the body is sent as `expected` (parameters such
    /// as `charset` allowed); an empty body passes.
    public func requireMediaType(_ expected: String = "application/json") throws(Problem) {
        guard !body.isEmpty, mediaType != expected.lowercased() else { return }
        throw Problem.unsupportedMediaType(expected: expected)
    }
}
