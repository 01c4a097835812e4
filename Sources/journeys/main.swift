import Foundation
import JourneyApp
import EmbeddedPostgres
import Postgres

let settings = DatabaseSettings.from(environment: ProcessInfo.processInfo.environment)
let database = try await Database.open(settings, poolSize: 8)
let result = try await AppendBenchmark(client: database.admin.self == nil ? database.app : try PostgresClient(url: database.embedded!.ownerURL, configuration: .init(maxConnections: 8))).run { print("running", $0) }
let data = try JSONEncoder().encode(result)
print(String(decoding: data, as: UTF8.self))
