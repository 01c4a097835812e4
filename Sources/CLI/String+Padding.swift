extension String {
    /// The string with spaces added on the right up to `width` characters; never truncated.
    func paddedRight(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The string with spaces added on the left up to `width` characters; never truncated.
    func paddedLeft(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
