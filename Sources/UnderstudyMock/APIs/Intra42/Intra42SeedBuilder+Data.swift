import UnderstudyCore

/// The curated intranet the seed is made of: names as the 42 intranet writes them.
extension Intra42SeedBuilder {
    struct Person {
        let login: String
        let first: String
        let last: String
        let campus: Int
    }

    /// The first one is the default user; `cmarti` shares a prefix with `cmartin` for search.
    static let people = [
        Person(login: "cmartin", first: "Camille", last: "Martin", campus: 9),
        Person(login: "hdubois", first: "Hugo", last: "Dubois", campus: 9),
        Person(login: "lbernard", first: "Léa", last: "Bernard", campus: 9),
        Person(login: "ithomas", first: "Inès", last: "Thomas", campus: 9),
        Person(login: "grobert", first: "Gabriel", last: "Robert", campus: 9),
        Person(login: "mpetit", first: "Manon", last: "Petit", campus: 9),
        Person(login: "jdurand", first: "Jules", last: "Durand", campus: 9),
        Person(login: "sleroy", first: "Sarah", last: "Leroy", campus: 1),
        Person(login: "amoreau", first: "Adam", last: "Moreau", campus: 1),
        Person(login: "nnguyen", first: "Noah", last: "Nguyen", campus: 1),
        Person(login: "egarcia", first: "Emma", last: "Garcia", campus: 9),
        Person(login: "cmarti", first: "Chloé", last: "Martinez", campus: 9),
    ]

    static let lyon: JSONValue = [
        "id": 9, "name": "Lyon", "time_zone": "Europe/Paris",
        "language": ["id": 1, "name": "Français", "identifier": "fr"], "users_count": 0, "country": "France",
        "address": "78 Rue Sully", "zip": "69100", "city": "Villeurbanne", "website": "https://www.42lyon.fr",
        "facebook": .null, "twitter": .null, "active": true, "email_extension": "42lyon.fr",
    ]

    static let paris: JSONValue = [
        "id": 1, "name": "Paris", "time_zone": "Europe/Paris",
        "language": ["id": 1, "name": "Français", "identifier": "fr"], "users_count": 0, "country": "France",
        "address": "96, boulevard Bessières", "zip": "75017", "city": "Paris", "website": "https://42.fr",
        "facebook": "https://facebook.com/42born2code", "twitter": "https://twitter.com/42born2code", "active": true,
        "email_extension": "42.fr",
    ]

    /// A campus as embedded in a user.
    static func embed(_ campus: JSONValue) -> JSONValue {
        [
            "id": campus["id"] ?? 0, "name": campus["name"] ?? "", "time_zone": campus["time_zone"] ?? "UTC",
            "city": campus["city"] ?? "", "country": campus["country"] ?? "", "website": campus["website"] ?? "",
            "language": [
                "name": campus["language"]?["name"] ?? "English",
                "identifier": campus["language"]?["identifier"] ?? "en",
            ],
        ]
    }

    static let coalitions: [(id: Int, name: String, slug: String, color: String)] = [
        (45, "The Federation", "federation", "#4180db"), (46, "The Alliance", "alliance", "#33c47f"),
        (47, "The Assembly", "assembly", "#a061d1"), (48, "The Order", "order", "#ff6950"),
    ]

    static let skills: [(id: Int, name: String)] = [
        (1, "Algorithms & AI"), (2, "Security"), (3, "Rigor"), (4, "Unix"), (5, "Graphics"), (6, "Web"),
        (7, "Group & interpersonal"), (8, "Parallel computing"), (10, "Network & system administration"),
        (11, "Organization"), (12, "DB & Data"), (13, "Adaptation & creativity"), (14, "Imperative programming"),
        (15, "Technology integration"), (16, "Company experience"), (17, "Object-oriented programming"),
    ]

    static let achievements: [(id: Int, name: String, description: String, code: String, count: Int?)] = [
        (1, "Welcome, Cadet!", "Tu as réussi ta piscine C. Bienvenue à 42 !", "SCO001", nil),
        (4, "Code Explorer", "Tu as validé ton premier projet.", "PRO001", nil),
        (17, "Bonus Hunter", "Tu as validé 1 projet avec la note maximale.", "PRO010", 1),
        (25, "Rigorous Basterd", "Tu as validé 3 projets d'affilée (même les bonus !)", "PRO005", nil),
        (41, "Attendee", "Tu as assisté à 1 conférence.", "SOC001", 1),
        (45, "Film buff", "Tu as regardé 1 vidéo dans l'e-learning.", "PED001", 1),
        (
            50, "Home is where the code is", "Tu as été loggué dans le même cluster 10 jours de suite.", "LOG004",
            nil
        ),
        (84, "All work and no play", "Tu as été loggué 90 heures en une semaine.", "LOG009", nil),
        (88, "404 - Sleep not found", "Tu as été loggué 24h d'affilée.", "LOG012", nil),
        (212, "Perfect examiner", "Tu as effectué 5 évaluations sans flag.", "COR001", 5),
    ]

    static let titles: [(id: Int, name: String)] = [
        (12, "%login the Bug Slayer"), (84, "Kernel Kamikaze %login"), (73, "%login, Sith Lord of the Code"),
        (5, "Code Explorer %login"), (99, "%login the Yeller"),
    ]

    /// The curriculum in the order it is done: the C piscine (cursus 9), the common core and options (21).
    static let projects: [(name: String, slug: String, cursus: Int)] = {
        var projects: [(name: String, slug: String, cursus: Int)] = [
            ("C Piscine Shell 00", "c-piscine-shell-00", 9), ("C Piscine Shell 01", "c-piscine-shell-01", 9),
        ]
        for day in 0...13 {
            let number = day < 10 ? "0\(day)" : "\(day)"
            projects.append(("C Piscine C \(number)", "c-piscine-c-\(number)", 9))
            if day % 5 == 4 { projects.append(("C Piscine Rush 0\(day / 5)", "c-piscine-rush-0\(day / 5)", 9)) }
            if day % 5 == 2 { projects.append(("C Piscine Exam 0\(day / 5)", "c-piscine-exam-0\(day / 5)", 9)) }
        }
        projects.append(("C Piscine Final Exam", "c-piscine-final-exam", 9))
        let core = [
            "Libft", "Born2beroot", "ft_printf", "get_next_line", "push_swap", "minitalk", "pipex", "so_long", "FdF",
            "fract-ol", "Exam Rank 02", "Philosophers", "minishell", "Exam Rank 03", "NetPractice", "cub3d", "miniRT",
            "CPP Module 00", "CPP Module 01", "CPP Module 02", "CPP Module 03", "CPP Module 04", "Exam Rank 04",
            "CPP Module 05", "CPP Module 06", "CPP Module 07", "CPP Module 08", "CPP Module 09", "Inception", "ft_irc",
            "webserv", "Exam Rank 05", "ft_transcendence", "Exam Rank 06", "Libasm", "ft_ls", "ft_containers",
            "Python Module 00", "Python Module 01", "Python Module 02", "Python Module 03", "Python Module 04",
            "ready set boole", "matrix", "computorv1", "ft_linear_regression", "dslr", "ft_ssl_md5", "ft_nm",
            "ft_malcolm", "ft_ping", "ft_traceroute", "snow-crash", "darkly", "rainfall", "Internship I", "taskmaster",
            "ft_turing", "Tinky-Winkey", "override", "ft_linux",
        ]
        for name in core {
            let slug = name.lowercased().map { $0.isLetter || $0.isNumber || $0 == "_" ? String($0) : "-" }.joined()
            projects.append((name, slug, 21))
        }
        return projects
    }()

    static let eventTemplates: [(name: String, description: String, location: String, kind: String)] = [
        (
            "Conférence : les métiers de la cybersécurité",
            "Trois anciens de 42 racontent leur quotidien en SOC et en pentest.", "Amphithéâtre", "conference"
        ),
        (
            "Workshop Git avancé", "Rebase interactif, bisect et worktrees : venez avec votre laptop.", "Salle Turing",
            "workshop"
        ),
        (
            "Meet-up Swift & iOS", "Présentation de SwiftUI et de Swift Testing, suivie d'un apéro.", "Cafétéria",
            "meet_up"
        ),
        (
            "Hackathon Green IT", "48 heures pour réduire l'empreinte carbone d'un service web.", "Cluster Z4",
            "hackathon"
        ),
        ("Rush 00 : présentation", "Lancement du rush du week-end pour les piscineux.", "Amphithéâtre", "rush"),
        (
            "Soirée jeux de société", "Le BDE sort les jeux : Catan, Codenames et Dixit.", "Cafétéria",
            "association"
        ),
        (
            "Speed working avec nos partenaires", "Dix minutes par entreprise pour décrocher un stage.",
            "Hall d'entrée", "speed_working"
        ),
        (
            "Forum entreprises", "Une trentaine d'entreprises recrutent des stagiaires et des alternants.",
            "Hall d'entrée", "partnership"
        ),
        (
            "Initiation à Docker", "Images, conteneurs et compose, avant d'attaquer Inception.", "Salle Hopper",
            "workshop"
        ),
        (
            "Talk : contribuer à l'open source", "Trouver un projet, lire le code, ouvrir sa première pull request.",
            "En ligne (Discord)", "conference"
        ),
        ("Tournoi de babyfoot", "Inscriptions par équipe de deux, finale à 20 h.", "Cafétéria", "association"),
        ("Atelier CV et LinkedIn", "Relecture de CV par l'équipe pédagogique.", "Salle Lovelace", "workshop"),
        ("Coding dojo : algorithmes", "Kata en binôme sur des problèmes de graphes.", "Cluster Z2", "challenge"),
        (
            "Visite d'un data center", "Départ en bus depuis le campus, chaussures fermées obligatoires.",
            "Extérieur",
            "extern"
        ),
    ]
}
