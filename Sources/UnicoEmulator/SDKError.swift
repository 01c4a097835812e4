import HTTPServer

/// A refusal of the SDK-facing endpoints: `{"sdkCode":<seed code>,"message":"..."}`.
///
/// `73203` blank token (400), `73303` token entry disabled (403), `73304` token rejected (401),
/// `73305` token expired (401), `73302` anything else the device cannot fix (400/404/409).
struct SDKError: Error, Sendable, Equatable {
    var status: HTTPStatus
    var sdkCode: Int
    var message: String

    static func blankToken() -> SDKError {
        SDKError(status: .badRequest, sdkCode: 73203, message: "webAppToken is empty or blank")
    }

    static func tokenEntryDisabled() -> SDKError {
        SDKError(status: .forbidden, sdkCode: 73303, message: "token entry is not enabled for this account in this environment")
    }

    static func rejected(_ message: String) -> SDKError {
        SDKError(status: .unauthorized, sdkCode: 73304, message: message)
    }

    static func expired() -> SDKError {
        SDKError(status: .unauthorized, sdkCode: 73305, message: "webAppToken expired")
    }

    static func other(_ status: HTTPStatus, _ message: String) -> SDKError {
        SDKError(status: status, sdkCode: 73302, message: message)
    }

    var response: HTTPResponse {
        JSONBody.response(Body(sdkCode: sdkCode, message: message), status: status)
    }

    private struct Body: Encodable {
        var sdkCode: Int
        var message: String
    }
}
