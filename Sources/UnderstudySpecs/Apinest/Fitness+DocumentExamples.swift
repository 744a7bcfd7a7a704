extension Fitness {
    /// The JSON examples of `fitness-activities-guide.md`, copied verbatim (the guide's JSON has no comments).
    enum DocumentExamples {
        /// The "Créer une Activité" request body.
        static let createActivityRequest = #"""
        {
          "sportType": "Football",
          "title": "Weekend Football Match",
          "description": "Join us for a friendly football match!",
          "location": "Central Park, New York",
          "latitude": 40.785091,
          "longitude": -73.968285,
          "date": "2025-11-15",
          "time": "2025-11-15T14:30:00Z",
          "participants": 10,
          "level": "Intermediate",
          "visibility": "public"
        }
        """#

        /// The "Créer une Activité" response (201 Created).
        static let createActivityResponse = #"""
        {
          "_id": "65a1b2c3d4e5f6g7h8i9j0k1",
          "sportType": "Football",
          "title": "Weekend Football Match",
          "description": "Join us for a friendly football match!",
          "location": "Central Park, New York",
          "latitude": 40.785091,
          "longitude": -73.968285,
          "date": "2025-11-15T00:00:00.000Z",
          "time": "2025-11-15T14:30:00.000Z",
          "participants": 10,
          "participantIds": ["65a1b2c3d4e5f6g7h8i9j0k0"],
          "level": "Intermediate",
          "visibility": "public",
          "isCompleted": false,
          "creator": {
            "_id": "65a1b2c3d4e5f6g7h8i9j0k0",
            "name": "John Doe",
            "email": "john@example.com",
            "profileImageUrl": "https://..."
          },
          "createdAt": "2025-11-14T10:30:00.000Z",
          "updatedAt": "2025-11-14T10:30:00.000Z"
        }
        """#

        /// The "Récupérer Toutes les Activités" response (200 OK).
        static let activitiesResponse = #"""
        [
          {
            "_id": "65a1b2c3d4e5f6g7h8i9j0k1",
            "sportType": "Football",
            "title": "Weekend Football Match",
            "location": "Central Park, New York",
            "date": "2025-11-15T00:00:00.000Z",
            "time": "2025-11-15T14:30:00.000Z",
            "participants": 10,
            "participantIds": ["..."],
            "level": "Intermediate",
            "visibility": "public",
            "isCompleted": false,
            "creator": {
              "_id": "...",
              "name": "John Doe",
              "profileImageUrl": "..."
            }
          }
        ]
        """#

        /// The "Compléter une Activité" optional request body.
        static let completeActivityRequest = #"""
        {
          "durationMinutes": 30,
          "distanceKm": 5.5
        }
        """#

        /// The "Compléter une Activité" response (200 OK).
        static let completeActivityResponse = #"""
        {
          "message": "Activity marked as complete"
        }
        """#
    }
}
