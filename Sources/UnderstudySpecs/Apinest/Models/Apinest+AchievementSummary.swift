extension Apinest {
    /// A user's level, XP and streaks, as the achievements guide declares it.
    public struct AchievementSummary: Codable, Sendable, Hashable {
        public let level: LevelInfo
        public let stats: StatsInfo

        /// The user's level and the XP towards the next one.
        public struct LevelInfo: Codable, Sendable, Hashable {
            public let currentLevel: Int
            public let totalXp: Int
            public let xpForNextLevel: Int
            public let currentLevelXp: Int
            public let progressPercentage: Double
        }

        /// The user's badge count and streaks (in days).
        public struct StatsInfo: Codable, Sendable, Hashable {
            public let totalBadges: Int
            public let currentStreak: Int
            public let bestStreak: Int
        }
    }
}
