import Foundation

/// The address a server binds, as a user writes it (`127.0.0.1`, `localhost`, `0.0.0.0`, `::1` or `[::1]`), and the
/// base URL that names it (`http://[::1]:4010`: an IPv6 address goes in brackets, RFC 3986 §3.2.2).
///
/// ```swift
/// let address = try ServerAddress("::1")
/// address.host                   // "::1", what is bound
/// address.baseURL(port: 4010)    // http://[::1]:4010
/// ```
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// What is bound: a host name, an IPv4 address, or an IPv6 address without brackets.
    public let host: String

    /// Reads a host as `--host` takes it.
    /// - Throws: ``ServerAddressError`` for an empty host or one no URL can name.
    public init(_ text: String) throws(ServerAddressError) {
        var host = text.trimmingCharacters(in: .whitespaces)
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_:%"))
        guard !host.isEmpty, host.unicodeScalars.allSatisfy(allowed.contains),
            host.contains(":") || !host.contains("%")
        else { throw ServerAddressError(host: text) }
        self.host = host
    }

    /// The host as a URL writes it: an IPv6 address in brackets.
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    /// `http://host:port`.
    public func baseURL(port: Int) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.percentEncodedHost = urlHost
        components.port = port
        // Every character was checked when the address was read: the components always make a URL.
        return components.url ?? URL(fileURLWithPath: "/")
    }

    public var description: String { urlHost }
}

/// A host no server can bind under a URL.
public struct ServerAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    public let host: String

    package init(host: String) {
        self.host = host
    }

    public var description: String {
        "the host \"\(host)\" is not a host name or an IP address (such as 127.0.0.1, localhost, 0.0.0.0, ::1 or [::1])"
    }
}
