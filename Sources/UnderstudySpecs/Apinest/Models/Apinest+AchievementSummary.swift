extension Apinest {
    /// A user's level, XP and streaks, as the achievements guide declares it.
    public struct AchievementSummary: Codable, Sendable, Hashable {
        public let level: LevelInfo
        public let stats: StatsInfo

        public init(level: LevelInfo, stats: StatsInfo) {
            self.level = level
            self.stats = stats
        }

        /// The user's level and the XP towards the next one.
        public struct LevelInfo: Codable, Sendable, Hashable {
            public let currentLevel: Int
            public let totalXp: Int
            public let xpForNextLevel: Int
            public let currentLevelXp: Int
            public let progressPercentage: Double

            public init(
                currentLevel: Int, totalXp: Int, xpForNextLevel: Int, currentLevelXp: Int, progressPercentage: Double
            ) {
                self.currentLevel = currentLevel
                self.totalXp = totalXp
                self.xpForNextLevel = xpForNextLevel
                self.currentLevelXp = currentLevelXp
                self.progressPercentage = progressPercentage
            }
        }

        /// The user's badge count and streaks (in days).
        public struct StatsInfo: Codable, Sendable, Hashable {
            public let totalBadges: Int
            public let currentStreak: Int
            public let bestStreak: Int

            public init(totalBadges: Int, currentStreak: Int, bestStreak: Int) {
                self.totalBadges = totalBadges
                self.currentStreak = currentStreak
                self.bestStreak = bestStreak
            }
        }
    }
}
