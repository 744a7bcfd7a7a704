extension VideGreniers {
    /// The JSON examples of `videgreniers-api-reference.md`, copied verbatim.
    ///
    /// Examples the document writes with `// comments` are not JSON: only the comments are stripped (each
    /// is marked below).
    enum DocumentExamples {
        /// The "Register" request.
        // The document's `// ...` comments are stripped; nothing else is changed.
        static let registerRequest = #"""
            {
              "email": "user@example.com",
              "password": "SecurePassword123!",
              "firstName": "John",
              "lastName": "Doe"
            }
            """#

        /// The "Register" response (login answers the same).
        // The document's `// ...` comments are stripped; nothing else is changed.
        static let authResponse = #"""
            {
              "data": {
                "accessToken": "eyJhbGciOiJIUzI1NiIs...",
                "refreshToken": "def502004a1b2c3d...",
                "expiresIn": 900,
                "user": {
                  "id": "uuid",
                  "email": "user@example.com",
                  "firstName": "John",
                  "lastName": "Doe"
                }
              },
              "success": true,
              "timestamp": "2023-09-06T13:00:00Z"
            }
            """#

        /// The "Login" request.
        static let loginRequest = #"""
            {
              "email": "user@example.com",
              "password": "SecurePassword123!"
            }
            """#

        /// The "Refresh Token" request.
        static let refreshRequest = #"""
            {
              "accessToken": "current-access-token",
              "refreshToken": "current-refresh-token"
            }
            """#

        /// The "Logout" request.
        static let logoutRequest = #"""
            {
              "refreshToken": "current-refresh-token"
            }
            """#

        /// The "Current User Info" response.
        static let currentUserResponse = #"""
            {
              "data": {
                "id": "uuid",
                "email": "user@example.com",
                "firstName": "John",
                "lastName": "Doe",
                "roles": ["User"],
                "isAuthenticated": true
              },
              "success": true
            }
            """#

        /// The "Get Events" response.
        // The document's `// ...` comments are stripped; nothing else is changed.
        static let eventsResponse = #"""
            {
              "data": [
                {
                  "id": "uuid",
                  "title": "Grande Brocante du Village",
                  "description": "Vide-grenier annuel avec plus de 50 exposants...",
                  "location": {
                    "street": "Place de la Mairie",
                    "city": "Bourg-en-Bresse",
                    "postalCode": "01000",
                    "country": "France",
                    "state": null,
                    "latitude": 46.2057,
                    "longitude": 5.2281
                  },
                  "startDate": "2023-09-15T08:00:00Z",
                  "endDate": "2023-09-15T18:00:00Z",
                  "status": 1,
                  "eventType": 1,
                  "contactEmail": "contact@mairie-village.fr",
                  "contactPhone": "+33123456789",
                  "specialInstructions": "Parking gratuit disponible",
                  "entryFeeAmount": 2.00,
                  "entryFeeCurrency": "EUR",
                  "allowsEarlyBird": true,
                  "earlyBirdTime": "07:30:00",
                  "earlyBirdFeeAmount": 5.00,
                  "earlyBirdFeeCurrency": "EUR",
                  "publishedOnUtc": "2023-09-01T10:00:00Z",
                  "createdOnUtc": "2023-08-25T14:30:00Z",
                  "modifiedOnUtc": "2023-09-01T10:00:00Z",
                  "organizerName": "Mairie du Village",
                  "categoryName": "Brocante",
                  "categoryIcon": "🏛️",
                  "categoryColor": "#4CAF50",
                  "distanceKm": 12.5,
                  "isFavorite": false,
                  "favoriteCount": 47
                }
              ],
              "success": true,
              "pagination": {
                "page": 1,
                "pageSize": 20,
                "totalPages": 3,
                "totalCount": 52,
                "hasPreviousPage": false,
                "hasNextPage": true
              }
            }
            """#

        /// The "Cancel Event" request.
        static let cancelRequest = #"""
            {
              "reason": "Météo défavorable"
            }
            """#

        /// The "Toggle Favorite Status" response.
        // The document's `// ...` comments are stripped; nothing else is changed.
        static let toggleResponse = #"""
            {
              "data": {
                "eventId": "uuid",
                "isFavorite": true,
                "action": "added"
              },
              "success": true
            }
            """#

        /// The "Check Favorite Status" request.
        static let statusRequest = #"""
            ["event-uuid-1", "event-uuid-2", "event-uuid-3"]
            """#

        /// The "Check Favorite Status" response.
        static let statusResponse = #"""
            {
              "data": {
                "event-uuid-1": true,
                "event-uuid-2": false,
                "event-uuid-3": true
              },
              "success": true
            }
            """#

        /// The "Get Profile" response.
        static let profileResponse = #"""
            {
              "data": {
                "id": "uuid",
                "firstName": "John",
                "lastName": "Doe", 
                "email": "john.doe@example.com",
                "phoneNumber": "+33123456789",
                "createdOnUtc": "2023-01-15T10:30:00Z",
                "modifiedOnUtc": "2023-08-20T14:20:00Z",
                "fullName": "John Doe",
                "createdEventsCount": 3,
                "favoritesCount": 12
              },
              "success": true
            }
            """#

        /// The "Update Profile" request.
        static let updateProfileRequest = #"""
            {
              "firstName": "John",
              "lastName": "Doe",
              "phone": "+33123456789",
              "bio": "Passionné de vide-greniers depuis 20 ans",
              "avatarUrl": "https://example.com/avatar.jpg",
              "preferredLanguage": "fr-FR",
              "emailNotifications": true,
              "pushNotifications": true,
              "smsNotifications": false
            }
            """#

        /// The "Get Account Statistics" response.
        static let statsResponse = #"""
            {
              "data": {
                "totalFavorites": 12,
                "totalEventsCreated": 3,
                "totalNotifications": 25,
                "unreadNotifications": 4,
                "accountCreatedDate": "2023-01-15T10:30:00Z",
                "lastLoginDate": "2023-09-06T08:15:00Z",
                "daysActive": 234
              },
              "success": true
            }
            """#

        /// The "Get User Activities" response.
        static let userActivitiesResponse = #"""
            {
              "data": [
                {
                  "id": "uuid",
                  "activityType": 0,
                  "eventId": "uuid",
                  "eventTitle": "Grande Brocante de Paris",
                  "searchTerm": null,
                  "metadata": null,
                  "createdOnUtc": "2023-09-06T10:30:00Z"
                }
              ],
              "success": true,
              "pagination": {
                "page": 1,
                "pageSize": 20,
                "totalPages": 5,
                "totalCount": 87,
                "hasPreviousPage": false,
                "hasNextPage": true
              },
              "timestamp": "2023-09-06T13:00:00Z"
            }
            """#

        /// The "Get Activity Statistics" response.
        // The document's `// ...` comments are stripped; nothing else is changed.
        static let activityStatisticsResponse = #"""
            {
              "data": {
                "totalActivities": 127,
                "activityCounts": {
                  "0": 45,
                  "1": 12,
                  "7": 8
                },
                "eventsViewed": 45,
                "eventsFavorited": 12,
                "eventsCreated": 2,
                "searchesPerformed": 8,
                "topSearchTerms": ["brocante", "vintage", "antiquités"],
                "lastActivityDate": "2023-09-06T12:45:00Z",
                "periodStart": "2023-08-07T13:00:00Z",
                "periodEnd": "2023-09-06T13:00:00Z"
              },
              "success": true,
              "timestamp": "2023-09-06T13:00:00Z"
            }
            """#

        /// The "Health Check" response.
        static let healthResponse = #"""
            {
              "status": "Healthy",
              "checks": {
                "database": "Healthy",
                "cache": "Healthy"
              }
            }
            """#

        /// The "Error Response Format" example.
        static let errorResponse = #"""
            {
              "data": null,
              "success": false,
              "errors": [
                "Le champ Email est requis.",
                "Le mot de passe doit contenir au moins 8 caractères."
              ],
              "timestamp": "2023-09-06T13:00:00Z"
            }
            """#
    }
}
