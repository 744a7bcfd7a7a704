import Foundation

extension VideGreniers {
    /// The envelope around every VideGreniers response but `/health`, as the document declares it.
    ///
    /// `timestamp` is a non-optional `Date`: the app's plain `JSONDecoder()` reads it as a number of
    /// seconds since 2001, while the document's examples send an ISO 8601 string or leave it out.
    ///
    /// ```swift
    /// let me = try JSONDecoder().decode(VideGreniers.ApiResponse<VideGreniers.CurrentUserDto>.self, from: data)
    /// ```
    public struct ApiResponse<T: Codable & Sendable>: Codable, Sendable {
        public let data: T?
        public let success: Bool
        public let message: String?
        public let errors: [String]?
        public let timestamp: Date

        public init(data: T?, success: Bool, message: String?, errors: [String]?, timestamp: Date) {
            self.data = data
            self.success = success
            self.message = message
            self.errors = errors
            self.timestamp = timestamp
        }
    }

    /// The envelope around a page of results, as the document declares it.
    public struct PaginatedApiResponse<T: Codable & Sendable>: Codable, Sendable {
        public let data: [T]
        public let success: Bool
        public let message: String?
        public let errors: [String]?
        public let timestamp: Date
        public let pagination: PaginationMetadata

        public init(
            data: [T], success: Bool, message: String?, errors: [String]?, timestamp: Date,
            pagination: PaginationMetadata
        ) {
            self.data = data
            self.success = success
            self.message = message
            self.errors = errors
            self.timestamp = timestamp
            self.pagination = pagination
        }
    }

    /// The page metadata of a ``PaginatedApiResponse``.
    public struct PaginationMetadata: Codable, Sendable, Hashable {
        public let page: Int
        public let pageSize: Int
        public let totalPages: Int
        public let totalCount: Int
        public let hasPreviousPage: Bool
        public let hasNextPage: Bool

        public init(
            page: Int, pageSize: Int, totalPages: Int, totalCount: Int, hasPreviousPage: Bool, hasNextPage: Bool
        ) {
            self.page = page
            self.pageSize = pageSize
            self.totalPages = totalPages
            self.totalCount = totalCount
            self.hasPreviousPage = hasPreviousPage
            self.hasNextPage = hasNextPage
        }
    }

    /// A placeholder for the `T` of an ``ApiResponse`` whose payload the document leaves out (errors,
    /// logout, deletions): it decodes from any JSON value and keeps nothing.
    ///
    /// Not in the document: the app needs some `T` to decode `{"data": null, "success": false, ...}`.
    public struct EmptyData: Codable, Sendable, Hashable {
        public init() {}

        /// Accepts any value: the payload of these responses is undocumented, so nothing is required of it.
        public init(from decoder: any Decoder) throws {}

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}

extension VideGreniers.ApiResponse: Hashable where T: Hashable {}
extension VideGreniers.ApiResponse: Equatable where T: Equatable {}
extension VideGreniers.PaginatedApiResponse: Hashable where T: Hashable {}
extension VideGreniers.PaginatedApiResponse: Equatable where T: Equatable {}
