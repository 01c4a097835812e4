import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refuses HTTP redirects: a webhook goes to the configured URL only, and a 3xx counts as a failure.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
