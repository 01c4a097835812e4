import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session delegate that follows no redirect: the 3xx answer itself comes back to the caller.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
