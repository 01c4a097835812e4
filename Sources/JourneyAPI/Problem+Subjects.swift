import DataSubjects
import HTTPServer
import JourneyDomain
import Privacy

/// Problem responses of the data-subject routes and of sealed fields that no longer open.
extension Problem {
    /// 404 `unknown_subject` naming the reference, 422 `validation_failed` for free text shaped like
    /// personal data, 400 for the other refusals naming the field.
    static func subjects(_ error: DataSubjectsError) -> Problem {
        if error.code == .personalData {
            return .validation(
                ValidationError(issues: [
                    FieldIssue(
                        field: error.field ?? "reason", code: .invalidValue,
                        message: error.message)
                ]))
        }
        var extra: [String: String] = [:]
        if let field = error.field { extra["field"] = field }
        let status: HTTPStatus = error.code == .unknownSubject ? .notFound : .badRequest
        return Problem(status: status, code: error.code.rawValue, detail: error.message, extra: extra)
    }

    /// 410 `subject_erased`: the subject's data key was destroyed; its sealed fields are gone for good.
    static func subjectErased() -> Problem {
        Problem(
            status: .gone, code: PrivacyError.Code.subjectErased.rawValue,
            detail: "The subject was erased: their personal data and tokens can no longer be opened.")
    }

    /// Runs `body`, turning ``DataSubjects/DataSubjectsError`` into its problem.
    static func subjects<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DataSubjectsError {
            throw Problem.subjects(error)
        }
    }
}
