import Foundation
import UnderstudyCore
import UnderstudySpecs

/// Builds the initial intranet of the intra42 mock, deterministic for a seed and a clock.
///
/// Without `--fixtures` files the generated fixture bodies are replaced by a coherent, realistic intranet
/// (generated bodies put people's names in skills and "alpha" in time zones): campus Lyon (9) and Paris (1),
/// twelve users (the first is the default user, with 84 projects, a month of sessions with one open, two
/// coalitions, slots), coalitions, and 42 events around now. A fixture file of an endpoint replaces the
/// matching part (the default user's profile, projects, sessions, coalitions or slots; extra users, campus
/// sessions, events, a campus), after which ids and references are made coherent again. Times are placed
/// around the clock's current hour, so "open", "to come" and "at least 30 minutes ahead" hold when the mock
/// starts.
struct Intra42SeedBuilder {
    let source: FixtureSource
    let application: Intra42Application
    /// The clock's hour, the origin of every seeded time.
    let anchor: Date
    var random: SeededRandom
    var state = Intra42State()
    /// The slots, opened in the state once the users are final (``Intra42State/open(_:)``).
    var slots: [Intra42SlotRecord] = []
    /// Full `Campus` objects.
    var campuses: [JSONValue] = []
    /// The users' coalitions, each user's in membership order.
    var memberships: [Intra42Membership] = []
    /// `ProjectUser` objects by owner, each user's newest attempt first.
    var projectsUsers: [Intra42OwnedRow] = []
    /// `Location` objects by owner; `end_at` is `null` while the session is open.
    var locations: [Intra42OwnedRow] = []
    /// `Event` objects.
    var events: [JSONValue] = []
    /// The hosts of open sessions, which must differ.
    private var openHosts: Set<String> = []

    init(source: FixtureSource, application: Intra42Application, now: Date) {
        self.source = source
        self.application = application
        anchor = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        random = SeededRandom(seed: source.seed).derived("intra42 seed")
    }

    /// The OAuth application of a seed: 42-style `u-s4t2ud-…` / `s-s4t2ud-…` credentials.
    static func application(seed: UInt64) -> Intra42Application {
        let random = SeededRandom(seed: seed)
        return Intra42Application(
            clientID: "u-s4t2ud-" + hex(random.derived("intra42 client id"), digits: 64),
            clientSecret: "s-s4t2ud-" + hex(random.derived("intra42 client secret"), digits: 64),
            redirectURI: "myapp42://oauth/callback")
    }

    /// `digits` lower-case hexadecimal digits drawn from `random`.
    static func hex(_ random: SeededRandom, digits: Int) -> String {
        var random = random
        var text = ""
        while text.count < digits {
            let word = String(random.next(), radix: 16)
            text += String(repeating: "0", count: 16 - word.count) + word
        }
        return String(text.prefix(digits))
    }

    /// Hexadecimal digits drawn from the seed's stream.
    private mutating func nextHex(_ digits: Int) -> String {
        Self.hex(SeededRandom(seed: random.next()), digits: digits)
    }

    // MARK: Build

    mutating func build() throws -> Intra42State {
        campuses = [Self.lyon, Self.paris]
        state.coalitions = Self.coalitions.map { coalition in
            [
                "id": .integer(coalition.id), "name": .string(coalition.name), "slug": .string(coalition.slug),
                "color": .string(coalition.color),
                "image_url": .string("https://cdn.intra.42.fr/coalition/image/\(coalition.id)/\(coalition.slug).svg"),
                "score": .integer(random.int(in: 38_000...61_000)),
            ]
        }
        let baseID = 140_000 + random.int(in: 0...9_999)
        for (index, person) in Self.people.enumerated() {
            addUser(id: baseID + index * 1_117 + random.int(in: 0...999), person: person, isDefault: index == 0)
        }
        addEvents()
        addSlots()
        applyFixtureFiles()
        makeCoherent()
        let defaultUser = state.users[0]
        state.authorizationCodes = [
            Intra42AuthorizationCode(
                code: Self.hex(SeededRandom(seed: source.seed).derived("intra42 authorization code"), digits: 64),
                userID: defaultUser.id, redirectURI: application.redirectURI, scopes: Intra42Application.scopes)
        ]
        // A slot is the JSON the API answers: opened once its user's login is final.
        for slot in slots { try state.open(slot) }
        // What the resource engine serves: the users' summaries (the users stay the overlay's: profiles, grants) and
        // the campuses; memberships, projects and sessions under their user's login (a membership or a project user
        // has no id of its own: its place is one); events under no campus (their `campus_ids` filter them).
        let logins = Dictionary(state.users.map { ($0.id, $0.login) }, uniquingKeysWith: { first, _ in first })
        /// A row of `item`, named by `id` (else its `id` member), under its user's login when it has one.
        func row(_ item: JSONValue, id: String? = nil, user: Int? = nil) -> ResourceRow {
            ResourceRow(
                parent: user.map { Intra42State.parent(of: logins[$0] ?? String($0)) } ?? [:],
                id: id ?? ResourceItems.text(item["id"] ?? .null) ?? "", item: item)
        }
        let rows: [String: [ResourceRow]] = [
            Intra42State.users: state.users.map { row($0.summary, id: $0.login) },
            Intra42State.campus: campuses.map { row($0) },
            Intra42State.coalitionsUsers: try memberships.enumerated().map { index, membership in
                let item = Intra42.CoalitionUser(
                    coalitionId: membership.coalitionID, score: membership.score, rank: membership.rank)
                return row(try Intra42.spec.wireJSON(item), id: String(index), user: membership.userID)
            },
            Intra42State.projectsUsers: projectsUsers.enumerated().map { row($1.body, id: String($0), user: $1.userID) },
            Intra42State.locations: locations.map { row($0.body, user: $0.userID) },
            Intra42State.events: events.map { row($0) },
        ]
        for (resource, rows) in rows {
            for row in rows { state.resources.tables[resource]?.append(row) }
        }
        return state
    }

    // MARK: Users

    private mutating func addUser(id: Int, person: Person, isDefault: Bool) {
        let campus = person.campus == 1 ? Self.paris : Self.lyon
        // Piscines run in summer, for 26 days; the common core starts in the autumn.
        let calendar = Calendar.intra42UTC
        let poolMonth = isDefault ? 8 : random.int(in: 7...9)
        let poolYear = calendar.component(.year, from: anchor) - (isDefault ? 2 : random.int(in: 2...3))
        let poolStart = calendar.date(from: DateComponents(year: poolYear, month: poolMonth, day: 4, hour: 7)) ?? anchor
        let cursusStart = poolStart.addingTimeInterval(Double(random.int(in: 60...80)) * 86_400)
        let skills = Self.skills.shuffled(using: &random).prefix(isDefault ? 12 : random.int(in: 3...10))
        let achievements = Self.achievements.shuffled(using: &random).prefix(isDefault ? 8 : random.int(in: 1...5))
        let titles = Self.titles.shuffled(using: &random).prefix(isDefault ? 2 : random.int(in: 0...2))
        let level = isDefault ? 9.42 : Double(random.int(in: 150...1_400)) / 100
        let profile: JSONValue = [
            "id": .integer(id), "login": .string(person.login),
            "displayname": .string("\(person.first) \(person.last)"),
            "email": .string("\(person.login)@student.\(campus["email_extension"]?.stringValue ?? "42.fr")"),
            "phone": isDefault ? "+33 6 12 34 56 78" : "hidden",
            "image": ["link": .string("https://cdn.intra.42.fr/users/\(nextHex(32))/\(person.login).jpg")],
            "wallet": .integer(random.int(in: 0...650)), "correction_point": .integer(random.int(in: 0...14)),
            "pool_month": .string(["july", "august", "september"][poolMonth - 7]),
            "pool_year": .string(String(poolYear)),
            "kind": "student", "location": .null, "active?": true,
            "campus": [Self.embed(campus)],
            "achievements": .array(
                achievements.map { achievement in
                    [
                        "id": .integer(achievement.id), "name": .string(achievement.name),
                        "description": .string(achievement.description),
                        "image": .string("/uploads/achievement/image/\(achievement.id)/\(achievement.code).svg"),
                        "nbr_of_success": achievement.count.map(JSONValue.integer) ?? .null,
                    ]
                }),
            "titles": .array(titles.map { ["id": .integer($0.id), "name": .string($0.name)] }),
            "titles_users": .array(
                titles.enumerated().map { ["selected": .bool($0.offset == 0), "title_id": .integer($0.element.id)] }),
            "cursus_users": [
                [
                    "cursus_id": 9, "grade": .null, "level": .double(Double(random.int(in: 600...1_150)) / 100),
                    "begin_at": .string(Intra42Time.format(poolStart)),
                    "end_at": .string(Intra42Time.format(poolStart.addingTimeInterval(26 * 86_400))),
                    "cursus": ["name": "C Piscine"],
                    "skills": .array(skills.prefix(3).map { skill(of: $0, upTo: 6) }),
                ],
                [
                    "cursus_id": 21, "grade": .string(level >= 6 ? "Member" : "Learner"), "level": .double(level),
                    "begin_at": .string(Intra42Time.format(cursusStart)), "end_at": .null,
                    "cursus": ["name": "42cursus"],
                    "skills": .array(skills.map { skill(of: $0, upTo: 11) }),
                ],
            ],
        ]
        state.users.append(
            Intra42UserRecord(id: id, login: person.login, profile: profile, primaryCampusID: person.campus))

        let coalitionIDs = isDefault ? [45, 47] : [Self.coalitions[random.int(in: 0...3)].id]
        for (index, coalition) in coalitionIDs.enumerated() {
            // The piscine coalition of the default user keeps its score but no longer ranks.
            let ranked = !(isDefault && index == 0)
            memberships.append(
                Intra42Membership(
                    userID: id, coalitionID: coalition, score: random.int(in: 0...4_200),
                    rank: ranked ? random.int(in: 1...320) : nil))
        }
        addProjects(
            userID: id, login: person.login, poolStart: poolStart, cursusStart: cursusStart,
            count: isDefault ? Self.projects.count : random.int(in: 25...40))
        addLocations(
            userID: id, campus: person.campus, days: isDefault ? 30 : 10, open: isDefault || random.chance(0.6))
    }

    private mutating func skill(of skill: (id: Int, name: String), upTo maximum: Int) -> JSONValue {
        [
            "id": .integer(skill.id), "name": .string(skill.name),
            "level": .double(Double(random.int(in: 50...(maximum * 100))) / 100),
        ]
    }

    /// The first `count` projects of the curriculum, newest first: the piscine's during its 26 days, the
    /// common core's from its start to a month ago. Piscine projects are sometimes failed for good; common
    /// core ones are sometimes retried; the last few are not finished.
    private mutating func addProjects(userID: Int, login: String, poolStart: Date, cursusStart: Date, count: Int) {
        let chosen = Array(Self.projects.prefix(count))
        let piscineCount = chosen.filter { $0.cursus == 9 }.count
        let coreCount = chosen.count - piscineCount
        let unfinishedCount = min(4, max(1, coreCount / 3))
        let coreSpan = max(7 * 86_400, anchor.timeIntervalSince(cursusStart) - 30 * 86_400)
        let latest = anchor.addingTimeInterval(-3_600)
        var rows: [JSONValue] = []
        var piscineIndex = 0
        var coreIndex = 0
        for (index, project) in chosen.enumerated() {
            let created: Date
            let done: Date
            var status = "finished"
            if project.cursus == 9 {
                created = poolStart.addingTimeInterval(
                    26 * 86_400 * Double(piscineIndex) / Double(max(1, piscineCount))
                        + Double(random.int(in: 0...28_800)))
                done = created.addingTimeInterval(Double(random.int(in: 86_400...172_800)))
                piscineIndex += 1
            } else {
                created = cursusStart.addingTimeInterval(
                    coreSpan * Double(coreIndex) / Double(max(1, coreCount)) + Double(random.int(in: 0...86_399)))
                done = min(
                    latest,
                    created.addingTimeInterval(
                        Double(random.int(in: 2...18)) * 86_400 + Double(random.int(in: 0...40_000))))
                let fromEnd = coreCount - 1 - coreIndex
                if fromEnd < unfinishedCount {
                    status = ["in_progress", "searching_a_group", "waiting_for_correction", "in_progress"][fromEnd]
                }
                coreIndex += 1
            }
            let unfinished = status != "finished"
            let failed = !unfinished && project.cursus == 9 && random.chance(0.15)
            let retried = !unfinished && project.cursus == 21 && random.chance(0.12)
            let occurrence = retried ? random.int(in: 1...2) : 0
            let mark: Int? =
                unfinished ? nil : failed ? random.int(in: 0...49) : random.chance(0.3) ? 125 : random.int(in: 80...115)
            let closed: Date? =
                status == "finished" || status == "waiting_for_correction" ? done.addingTimeInterval(-7_200) : nil
            let teamStatus = status == "searching_a_group" ? nil : status
            var teams: [JSONValue] = []
            var teamID: Int?
            if let teamStatus {
                for attempt in 0...occurrence {
                    let id = 4_000_000 + userID % 10_000 * 100 + index * 3 + attempt
                    teamID = id
                    let isExam = project.name.contains("Exam")
                    teams.append([
                        "id": .integer(id), "status": .string(attempt == occurrence ? teamStatus : "finished"),
                        "repo_url": isExam
                            ? .null
                            : .string("git@vogsphere.42lyon.fr:vogsphere/intra-uuid-\(nextHex(8))-\(id)-\(login)"),
                    ])
                }
            }
            rows.append([
                "final_mark": mark.map(JSONValue.integer) ?? .null, "status": .string(status),
                "validated?": mark.map { .bool(!failed && $0 >= 50) } ?? .null,
                "occurrence": .integer(occurrence), "cursus_ids": [.integer(project.cursus)],
                "created_at": .string(Intra42Time.format(created)),
                "marked_at": mark == nil ? .null : .string(Intra42Time.format(done)),
                "closed_at": closed.map { .string(Intra42Time.format($0)) } ?? .null,
                "project": ["name": .string(project.name), "slug": .string(project.slug)],
                "current_team_id": teamID.map(JSONValue.integer) ?? .null, "teams": .array(teams),
            ])
        }
        projectsUsers += rows.reversed().map { Intra42OwnedRow(userID: userID, body: $0) }
    }

    /// Sessions on most of the last `days` days (one or two a day) and, when `open`, one begun this
    /// morning and still open.
    private mutating func addLocations(userID: Int, campus: Int, days: Int, open: Bool) {
        let today = Calendar.intra42UTC.startOfDay(for: anchor)
        var sessions: [(begin: Date, end: Date?)] = []
        for day in (1...days).reversed() where random.chance(0.75) {
            let start = today.addingTimeInterval(-Double(day) * 86_400)
            let morning = start.addingTimeInterval(Double(random.int(in: 6 * 3600...9 * 3600)))
            let morningEnd = morning.addingTimeInterval(Double(random.int(in: 2 * 3600...5 * 3600)))
            sessions.append((morning, morningEnd))
            if random.chance(0.6) {
                let afternoon = morningEnd.addingTimeInterval(Double(random.int(in: 1_800...5_400)))
                sessions.append((afternoon, afternoon.addingTimeInterval(Double(random.int(in: 5_400...16_200)))))
            }
        }
        if open {
            let begin = max(today, anchor.addingTimeInterval(-Double(random.int(in: 1_800...10_800))))
            sessions.append((begin, nil))
        }
        let host = { (random: inout SeededRandom) -> String in
            campus == 1
                ? "e\(random.int(in: 1...3))r\(random.int(in: 1...13))p\(random.int(in: 1...22))"
                : "z\(random.int(in: 1...4))r\(random.int(in: 1...13))p\(random.int(in: 1...8))"
        }
        for session in sessions {
            var name = host(&random)
            // Two people cannot sit at the same workstation at once.
            while session.end == nil && !openHosts.insert(name).inserted { name = host(&random) }
            locations.append(
                Intra42OwnedRow(
                    userID: userID,
                    body: [
                        "id": 0, "begin_at": .string(Intra42Time.format(session.begin)),
                        "end_at": session.end.map { .string(Intra42Time.format($0)) } ?? .null,
                        "host": .string(name), "campus_id": .integer(campus), "primary": true,
                    ]))
        }
    }

    // MARK: Events and slots

    private mutating func addEvents() {
        let today = Calendar.intra42UTC.startOfDay(for: anchor)
        for index in 0..<42 {
            let template = Self.eventTemplates[index % Self.eventTemplates.count]
            let offset = -60 + index * 25 / 10 + random.int(in: 0...2)
            let begin = today.addingTimeInterval(Double(offset) * 86_400 + Double(random.int(in: 16...34)) * 1_800)
            let end = begin.addingTimeInterval(Double(random.int(in: 2...8)) * 1_800)
            let maximum: Int? = random.chance(0.4) ? nil : random.int(in: 2...15) * 10
            let campuses: [Int] = index % 7 == 3 ? [1] : index % 11 == 5 ? [1, 9] : [9]
            events.append([
                "id": .integer(0), "name": .string(template.name), "description": .string(template.description),
                "location": .string(template.location), "kind": .string(template.kind),
                "max_people": maximum.map(JSONValue.integer) ?? .null,
                "nbr_subscribers": .integer(random.int(in: 0...(maximum ?? 80))),
                "begin_at": .string(Intra42Time.format(begin)), "end_at": .string(Intra42Time.format(end)),
                "campus_ids": .array(campuses.map(JSONValue.integer)),
                "cursus_ids": .array((template.kind == "rush" ? [9] : [21]).map(JSONValue.integer)),
            ])
        }
    }

    /// The default user's slots in the next days (one booked) and a few of the second user's.
    private mutating func addSlots() {
        let tomorrow = Calendar.intra42UTC.startOfDay(for: anchor).addingTimeInterval(86_400)
        var slotID = 70_000_000 + random.int(in: 0...999_999)
        let plan: [(user: Int, day: Int, hour: Double, count: Int, booked: Int?)] = [
            (0, 0, 9, 4, nil), (0, 1, 14, 2, 0), (0, 2, 16, 4, nil), (1, 0, 11, 4, 1),
        ]
        for entry in plan {
            let user = state.users[entry.user]
            for index in 0..<entry.count {
                let begin = tomorrow.addingTimeInterval(
                    Double(entry.day) * 86_400 + entry.hour * 3600 + Double(index) * 900)
                var scaleTeam: JSONValue?
                if entry.booked == index {
                    let booked = begin.addingTimeInterval(-3 * 86_400)
                    scaleTeam = [
                        "id": .integer(6_800_000 + random.int(in: 0...99_999)),
                        "scale_id": .integer(random.int(in: 30_000...39_999)),
                        "comment": .null, "feedback": .null, "final_mark": .null, "flag": .null,
                        "begin_at": .string(Intra42Time.format(begin)), "filled_at": .null,
                        "created_at": .string(Intra42Time.format(booked)),
                        "updated_at": .string(Intra42Time.format(booked)),
                        "correcteds": "invisible",
                        "corrector": [
                            "id": .integer(user.id), "login": .string(user.login),
                            "url": .string("https://api.intra.42.fr/v2/users/\(user.login)"),
                        ],
                        "truant": [:], "questions_with_answers": [],
                    ]
                }
                slots.append(
                    Intra42SlotRecord(
                        id: slotID, userID: user.id, beginAt: Intra42Time.format(begin),
                        endAt: Intra42Time.format(begin.addingTimeInterval(900)), scaleTeam: scaleTeam))
                slotID += 1
            }
        }
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC, which the API's timestamps use.
    static var intra42UTC: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}
