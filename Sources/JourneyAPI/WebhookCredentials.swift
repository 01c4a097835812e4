import Foundation
import HTTPServer
import JourneyDomain

/// Every credential Unico's webhooks may present: the deployment's (`UNICO_WEBHOOK_AUTH`) and
/// those of tenants with a Unico account of their own (`tenants.<name>.webhookAuth` in the Unico
/// settings file), and which journeys each may touch.
///
/// A tenant's credentials touch only that tenant's journeys. The deployment's touch every other
/// journey, except those whose process a tenant with credentials of its own made with its own
/// Unico account (its account's webhook presents the tenant's credentials, so the deployment's
/// have no business there). A call whose credentials may not touch the journey of its
/// `processId` is answered as a process no journey created.
struct WebhookCredentials: Sendable {
    /// Whose credentials a call presented.
    enum Caller: Sendable, Equatable {
        case deployment
        case tenant(String)
    }

    let deployment: WebhookAuthenticator?
    /// Each tenant's own credentials, by tenant name.
    let tenants: [String: WebhookAuthenticator]
    /// The environments in which each tenant has a Unico account of its own.
    let tenantAccounts: [String: Set<Environment>]

    /// Whether any credential is configured (none: every webhook is refused).
    var isConfigured: Bool { deployment != nil || !tenants.isEmpty }

    /// The scheme names configured, for logs (never the credentials).
    var modeName: String {
        let names = ([deployment].compactMap { $0 } + tenants.values).map(\.modeName)
        return names.isEmpty ? "unconfigured" : Set(names).sorted().joined(separator: ",")
    }

    /// Whose credentials `headers` carry (an `oauth2` token unexpired at `now`); nil when none.
    /// Every configured credential is compared, each in constant time.
    func caller(_ headers: HTTPHeaders, now: Date) -> Caller? {
        let tenantMatches = tenants.keys.sorted().filter { tenants[$0]?.accepts(headers, now: now) == true }
        if deployment?.accepts(headers, now: now) == true { return .deployment }
        return tenantMatches.first.map { .tenant($0) }
    }

    /// Whether `caller` may touch a journey of `tenant` whose processes are made in `environment`.
    func may(_ caller: Caller, touch tenant: String, environment: Environment?) -> Bool {
        switch caller {
        case .tenant(let name):
            return name == tenant
        case .deployment:
            guard tenants[tenant] != nil, let environment else { return true }
            return !(tenantAccounts[tenant]?.contains(environment) ?? false)
        }
    }

    /// The `oauth2` token issuers, the deployment's first.
    var tokenIssuers: [WebhookTokenIssuer] {
        [deployment?.tokenIssuer].compactMap { $0 } + tenants.keys.sorted().compactMap { tenants[$0]?.tokenIssuer }
    }

    /// The issuer whose client credentials `id` and `secret` are; every issuer is compared.
    func issuer(id: String, secret: String) -> WebhookTokenIssuer? {
        tokenIssuers.filter { $0.authenticates(id: id, secret: secret) }.first
    }
}

extension JourneyDependencies {
    /// The webhook credentials of ``webhookAuthentication`` and ``tenantWebhookAuthentication``,
    /// with the environments of each tenant's own Unico account (`engine.tenantUnico`).
    var webhookCredentials: WebhookCredentials {
        WebhookCredentials(
            deployment: webhookAuthentication, tenants: tenantWebhookAuthentication,
            tenantAccounts: engine.tenantUnico.mapValues { Set($0.keys) })
    }
}

extension WebhookCredentials.Caller {
    /// `deployment` or `tenant:<name>`, for logs.
    var label: String {
        switch self {
        case .deployment: "deployment"
        case .tenant(let name): "tenant:\(name)"
        }
    }
}
