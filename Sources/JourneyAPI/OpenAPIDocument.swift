import Foundation

/// The OpenAPI 3.1 description of the service, served at `/openapi.json`.
/// A test checks that it lists exactly the registered routes.
enum OpenAPIDocument {
    static var problem: [String: Any] { [
        "description": "An RFC 9457 problem with a stable `code`.",
        "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
    ] }

    static var document: [String: Any] {
        var base = baseDocument
        var paths = base["paths"] as? [String: Any] ?? [:]
        paths.merge(journeyPaths) { $1 }
        paths.merge(reportPaths) { $1 }
        base["paths"] = paths
        var components = base["components"] as? [String: Any] ?? [:]
        var schemas = components["schemas"] as? [String: Any] ?? [:]
        schemas.merge(journeySchemas) { $1 }
        components["schemas"] = schemas
        components["securitySchemes"] = securitySchemes
        base["components"] = components
        return base
    }

    static var baseDocument: [String: Any] { [
        "openapi": "3.1.0",
        "info": ["title": "Human Token Journeys", "version": "1.0.0",
                 "description": "Event-sourced orchestration of Unico Human Token journeys."],
        "paths": [
            "/healthz": ["get": operation("health", "The process answers.", ok: "Alive.")],
            "/readyz": ["get": operation("readiness", "The database answers and the schema is current.", ok: "Ready.",
                                         extra: ["503": problem])],
            "/metrics": ["get": operation("metrics", "Prometheus text exposition.", ok: "Metrics.", contentType: "text/plain")],
            "/openapi.json": ["get": operation("openapi", "This document.", ok: "The OpenAPI document.")],
        ],
        "components": [
            "schemas": [
                "Problem": [
                    "type": "object",
                    "required": ["type", "title", "status", "code"],
                    "properties": [
                        "type": ["type": "string"], "title": ["type": "string"], "status": ["type": "integer"],
                        "detail": ["type": "string"], "code": ["type": "string"], "instance": ["type": "string"],
                        "field": ["type": "string"],
                    ],
                ],
            ],
        ],
    ] }

    static func operation(_ id: String, _ summary: String, ok: String, contentType: String = "application/json",
                          extra: [String: Any] = [:]) -> [String: Any] {
        var responses: [String: Any] = ["200": ["description": ok, "content": [contentType: ["schema": ["type": contentType == "text/plain" ? "string" : "object"]]]]]
        responses.merge(extra) { $1 }
        return ["operationId": id, "summary": summary, "responses": responses]
    }

    /// The document as JSON bytes with sorted keys.
    static let json: Data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)

    /// Every (method, path template) the document describes.
    static var operations: Set<String> {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
    }
}
