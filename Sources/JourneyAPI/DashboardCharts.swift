/// Inline SVG charts for the dashboard; every label is escaped.
enum DashboardCharts {
    /// One bar of a chart: a label, a value and the text shown beside the bar.
    struct Bar {
        var label: String
        var value: Double
        var text: String
    }

    /// Horizontal bars scaled to the largest value.
    static func horizontalBars(_ bars: [Bar], title: String, color: String = "#3a6fd8") -> String {
        let rowHeight = 28, labelWidth = 150, barWidth = 500
        let height = max(bars.count, 1) * rowHeight + 8
        let maximum = bars.map(\.value).max() ?? 0
        var svg =
            "<svg role=\"img\" aria-label=\"\(DashboardHTML.escape(title))\" width=\"\(labelWidth + barWidth + 260)\" "
            + "height=\"\(height)\" viewBox=\"0 0 \(labelWidth + barWidth + 260) \(height)\"><title>\(DashboardHTML.escape(title))</title>"
        if bars.isEmpty {
            svg += "<text x=\"0\" y=\"20\" fill=\"#667\">No data in this window</text>"
        }
        for (index, bar) in bars.enumerated() {
            let y = index * rowHeight + 4
            let width = maximum > 0 ? Int((bar.value / maximum) * Double(barWidth)) : 0
            svg += "<text x=\"0\" y=\"\(y + 17)\" font-size=\"13\">\(DashboardHTML.escape(bar.label))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(max(width, 1))\" height=\"20\" fill=\"\(color)\"/>"
            svg +=
                "<text x=\"\(labelWidth + max(width, 1) + 6)\" y=\"\(y + 17)\" font-size=\"13\">\(DashboardHTML.escape(bar.text))</text>"
        }
        return svg + "</svg>"
    }

    /// Vertical bars (a histogram or a series over time) with labels under each bar.
    static func columns(_ bars: [Bar], title: String, color: String = "#2f9e6e", maximum fixed: Double? = nil) -> String {
        let columnWidth = bars.count > 20 ? 24 : 64, chartHeight = 160, top = 20
        let width = max(bars.count, 1) * columnWidth + 20, height = chartHeight + top + 40
        let maximum = fixed ?? (bars.map(\.value).max() ?? 0)
        var svg =
            "<svg role=\"img\" aria-label=\"\(DashboardHTML.escape(title))\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\"><title>\(DashboardHTML.escape(title))</title>"
        if bars.isEmpty {
            svg += "<text x=\"0\" y=\"20\" fill=\"#667\">No data in this window</text>"
        }
        for (index, bar) in bars.enumerated() {
            let barHeight = maximum > 0 ? Int((bar.value / maximum) * Double(chartHeight)) : 0
            let x = 10 + index * columnWidth
            let y = top + chartHeight - barHeight
            svg += "<rect x=\"\(x + 4)\" y=\"\(y)\" width=\"\(columnWidth - 8)\" height=\"\(barHeight)\" fill=\"\(color)\"/>"
            svg +=
                "<text x=\"\(x + columnWidth / 2)\" y=\"\(y - 4)\" font-size=\"11\" text-anchor=\"middle\">\(DashboardHTML.escape(bar.text))</text>"
            svg +=
                "<text x=\"\(x + columnWidth / 2)\" y=\"\(top + chartHeight + 16)\" font-size=\"11\" text-anchor=\"middle\">"
                + "\(DashboardHTML.escape(bar.label))</text>"
        }
        return svg + "</svg>"
    }
}
