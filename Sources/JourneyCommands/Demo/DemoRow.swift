import Foundation
import JourneyApp

/// One line of the demo's journey table, as `GET /v1/journeys/{id}` shows the journey.
struct DemoRow: Sendable, Equatable {
    var label: String
    var status: String
    var attempts: Int
    /// Unico processes created for the journey: its attempts with a `processCreatedAt`.
    var processes: Int
    /// The outcome when completed (`approved after abandonment` when a result completed a journey
    /// the policy had abandoned), the abandon reason's kind when abandoned, else `-`.
    var outcome: String
    var lastError: String

    /// The row of a start the service refused.
    static func refused(_ label: String) -> DemoRow {
        DemoRow(label: label, status: "start refused", attempts: 0, processes: 0, outcome: "-", lastError: "-")
    }

    /// Reads journey `journeyID` through the API with the company's key.
    static func read(_ label: String, journeyID: String, api: LocalStackHTTP, key: String) async throws -> DemoRow {
        let state = try await api.call("GET", "v1/journeys/\(journeyID)", bearer: key).json
        let code = (state["lastErrorCode"] as? [String: Any])?["code"] ?? state["lastErrorCode"]
        let attempts = state["attempts"] as? [[String: Any]] ?? []
        let abandoned = (state["abandonReason"] as? [String: Any])?["kind"] as? String
        let late = state["completedAfterAbandonment"] as? Bool == true
        let outcome = (state["outcome"] as? String).map { late ? "\($0) after abandonment" : $0 }
        return DemoRow(
            label: label, status: state["status"] as? String ?? "?", attempts: state["attempt"] as? Int ?? 0,
            processes: attempts.filter { $0["processCreatedAt"].map { !($0 is NSNull) } ?? false }.count,
            outcome: outcome ?? abandoned ?? "-", lastError: code.map { "\($0)" } ?? "-")
    }
}
