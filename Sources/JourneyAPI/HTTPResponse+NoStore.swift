import HTTPServer

extension HTTPResponse {
    /// `self` with `Cache-Control: no-store`: for answers that carry tokens or personal data.
    func noStore() -> HTTPResponse {
        var response = self
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
