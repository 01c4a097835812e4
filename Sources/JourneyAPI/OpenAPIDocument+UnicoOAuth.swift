import Foundation

extension OpenAPIDocument {
    /// `POST /v1/unico/oauth/token`: the OAuth2 client-credentials endpoint for Unico's webhooks.
    static var unicoOAuthPaths: [String: Any] {
        [
            "/v1/unico/oauth/token": [
                "post": [
                    "operationId": "issueUnicoWebhookToken",
                    "summary":
                        "OAuth2 client credentials for Unico's webhooks (UNICO_WEBHOOK_AUTH=oauth2:<client-id>:<client-secret>): "
                        + "a short-lived bearer token (UNICO_WEBHOOK_TOKEN_LIFETIME s, default 300) that receiveUnicoWebhook "
                        + "accepts. Client authentication by HTTP Basic or client_id/client_secret form fields. Problems carry "
                        + "`error` as well: invalid_request, unsupported_grant_type (400), invalid_client (401); 404 "
                        + "webhook_oauth_disabled in another mode.",
                    "security": [["unicoClientBasic": [String]()], [String: [String]]()],
                    "requestBody": [
                        "required": true,
                        "content": [
                            "application/x-www-form-urlencoded": [
                                "schema": object(
                                    [
                                        "grant_type": ["type": "string", "enum": ["client_credentials"]],
                                        "client_id": string, "client_secret": string,
                                    ], required: ["grant_type"])
                            ]
                        ],
                    ],
                    "responses": [
                        "200": answer("A token; Cache-Control: no-store.", "WebhookAccessToken"),
                        "400": problem, "401": problem, "404": problem,
                    ],
                ]
            ]
        ]
    }

    static var unicoOAuthSchemas: [String: Any] {
        [
            "WebhookAccessToken": object(
                [
                    "access_token": string, "token_type": ["type": "string", "enum": ["Bearer"]], "expires_in": integer,
                ], required: ["access_token", "token_type", "expires_in"])
        ]
    }

    static var unicoOAuthSecuritySchemes: [String: Any] {
        [
            "unicoClientBasic": [
                "type": "http", "scheme": "basic",
                "description": "The client id and secret of UNICO_WEBHOOK_AUTH=oauth2:<client-id>:<client-secret>.",
            ],
            "unicoWebhookOAuth2": [
                "type": "oauth2", "description": "UNICO_WEBHOOK_AUTH=oauth2:<client-id>:<client-secret>.",
                "flows": ["clientCredentials": ["tokenUrl": "/v1/unico/oauth/token", "scopes": [String: String]()]],
            ],
        ]
    }
}
