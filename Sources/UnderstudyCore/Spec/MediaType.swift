/// Request media types.
public enum MediaType {
    public static let form = "application/x-www-form-urlencoded"
    public static let multipart = "multipart/form-data"

    /// `text/plain` from `Text/Plain; charset=utf-8`.
    public static func essence(_ contentType: String) -> String {
        String(contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0])
            .trimmingSpaces.lowercased()
    }

    /// `application/json` and the `+json` types (`application/merge-patch+json`).
    public static func isJSON(_ mediaType: String) -> Bool {
        DocumentedResponse.isJSON(mediaType)
    }
}
