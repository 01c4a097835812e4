import Foundation
import HTTPServer

/// HTML building blocks of the dashboard: escaping and the page shell with its security headers.
enum DashboardHTML {
    /// Text safe inside elements and double-quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// No scripts, no external anything: inline styles and inline SVG only; forms post to us.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    /// A complete page with the dashboard's security headers.
    static func page(title: String, body: String, status: HTTPStatus = .ok) -> HTTPResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>\(style)</style></head>
            <body><main>\(body)</main></body></html>
            """
        var response = HTTPResponse.html(html, status: status)
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Options"] = "DENY"
        return response
    }

    static let style = """
        body{font-family:system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
        main{max-width:1100px;margin:0 auto;padding:24px}
        h1{font-size:1.6rem;margin:0 0 12px} h2{font-size:1.15rem;margin:0 0 8px}
        section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:16px;margin:16px 0}
        form.filters{display:flex;gap:12px;align-items:end;flex-wrap:wrap}
        label{display:flex;flex-direction:column;font-size:.85rem;gap:4px}
        table{border-collapse:collapse;width:100%;font-size:.85rem} td,th{border-bottom:1px solid #eee;padding:4px 6px;text-align:left}
        td.n,th.n{text-align:right} .error{color:#a40000;font-weight:600} .figures{display:flex;gap:24px}
        .figure{font-size:1.4rem;font-weight:600} .muted{color:#667}
        """
}
