/// A registered route: a method and a path template such as `/v1/journeys/{id}/token`.
///
/// Exposed by `Router.routes` so other modules can check, for example, that an OpenAPI
/// document describes every route.
public struct Route: Sendable, Hashable, CustomStringConvertible {
    public let method: HTTPMethod
    /// The template as registered; `{name}` segments capture one path segment each.
    public let path: String

    public init(method: HTTPMethod, path: String) {
        self.method = method
        self.path = path
    }

    public var description: String { "\(method.rawValue) \(path)" }
}
