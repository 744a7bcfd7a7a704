import Foundation
import Testing
import UnderstudyCore

@testable import UnderstudySpecs

struct Intra42SpecTests {
    let spec = Intra42.spec

    /// The inventory of ENDPOINTS.md, in its order.
    static let inventory = [
        "POST /oauth/token", "GET /v2/me", "GET /v2/users/{login}", "GET /v2/users/{login}/coalitions",
        "GET /v2/users/{login}/coalitions_users", "GET /v2/users/{login}/projects_users",
        "GET /v2/users/{login}/locations", "GET /v2/users/{login}/locations_stats", "GET /v2/campus/{id}",
        "GET /v2/campus/{id}/locations", "GET /v2/campus/{id}/events", "GET /v2/users", "GET /v2/me/slots",
        "POST /v2/slots", "DELETE /v2/slots/{id}",
    ]

    /// A user as the API sends it: `null`s rather than absent keys, members the app ignores, milliseconds.
    static let user = #"""
        {"id": 98765, "email": "jdoe@student.42lyon.fr", "login": "jdoe", "first_name": "Jane",
         "displayname": "Jane Doe", "kind": "student", "image": {"link": "https://cdn.intra.42.fr/users/jdoe.jpg"},
         "phone": "hidden", "correction_point": 4, "pool_month": "september", "pool_year": "2023",
         "location": null, "wallet": 215, "active?": true,
         "cursus_users": [
           {"cursus_id": 9, "grade": null, "level": 8.34, "begin_at": "2023-09-04T07:42:00.000Z", "end_at": null,
            "cursus": {"id": 9, "name": "C Piscine", "slug": "c-piscine"}, "skills": []},
           {"cursus_id": 21, "grade": "Learner", "level": 4.87, "begin_at": "2023-11-06T08:00:00.000Z",
            "end_at": null, "cursus": {"name": "42cursus"}, "skills": [{"id": 4, "name": "Unix", "level": 5.12}]}],
         "achievements": [{"id": 1, "name": "Welcome, Cadet!", "description": "Tu as réussi ta piscine.",
           "tier": "none", "image": "/uploads/achievement/image/1/SCO001.svg", "nbr_of_success": null}],
         "titles": [{"id": 12, "name": "%login the Bug Slayer"}],
         "titles_users": [{"id": 3, "user_id": 98765, "title_id": 12, "selected": true}],
         "campus": [{"id": 9, "name": "Lyon", "time_zone": "Europe/Paris", "city": "Lyon", "country": "France",
           "website": "https://www.42lyon.fr", "language": {"id": 1, "name": "Français", "identifier": "fr"}}]}
        """#

    func endpoint(_ id: String) throws -> AnyEndpoint {
        try #require(spec.endpoint(id), "no endpoint \(id)")
    }

    func findings(_ text: String, _ model: ModelReference) -> [Diagnostic] {
        BodyCheck.findings(Array(text.utf8), model: model, spec: spec)
    }

    func errors(_ text: String, _ model: ModelReference) -> [String] {
        findings(text, model).filter { $0.severity == .error }.map(\.summary)
    }

    func object(_ name: String) throws -> ObjectSchema {
        guard case .object(let object) = try #require(spec.definitions[name], "no definition \(name)") else {
            throw ObjectExpected(name: name)
        }
        return object
    }

    struct ObjectExpected: Error {
        let name: String
    }

    // MARK: - Endpoints

    @Test func endpointsMatchTheInventory() {
        #expect(spec.id == "intra42")
        #expect(spec.endpoints.map(\.id) == Self.inventory)
        #expect(spec.auth == .oauth2(tokenPath: "/oauth/token"))
        #expect(spec.wire == .plain)
        #expect(spec.app == AppContract(decoder: .plain))
        #expect(spec.endpoints.map(\.auth) == [.none] + Array(repeating: .required, count: 14))
        #expect(spec.endpoints.allSatisfy { $0.examples.responses.isEmpty })
    }

    @Test func statusesAndBodies() throws {
        #expect(try endpoint("POST /oauth/token").errors == [.badRequest, .unauthorized, .tooManyRequests])
        for endpoint in spec.endpoints.dropFirst() {
            #expect(endpoint.errors.contains(.unauthorized) && endpoint.errors.contains(.tooManyRequests))
            #expect(endpoint.errors.contains(.notFound) == !endpoint.path.parameterNames.isEmpty, "\(endpoint.id)")
        }
        let create = try endpoint("POST /v2/slots")
        #expect(create.success == .created && create.response?.name == "[Intra42.Slot]")
        #expect(create.errors.contains(.unprocessableEntity) && create.body == .required)
        let delete = try endpoint("DELETE /v2/slots/{id}")
        #expect(delete.success == .noContent && delete.response == nil && delete.request == nil)
        let userModel = try endpoint("GET /v2/users/{login}").response?.name
        #expect(try endpoint("GET /v2/me").response?.name == userModel)
        #expect(try endpoint("GET /v2/users/{login}/locations_stats").response?.name == "Intra42.LocationsStats")
    }

    @Test func linkHeaderPagination() throws {
        let paged = spec.endpoints.filter { $0.pagination == .linkHeader }.map(\.id)
        #expect(
            paged == [
                "GET /v2/users/{login}/projects_users", "GET /v2/users/{login}/locations",
                "GET /v2/campus/{id}/locations", "GET /v2/campus/{id}/events", "GET /v2/users", "GET /v2/me/slots",
            ])
        for id in paged {
            let parameters = try endpoint(id).parameters
            let size = try #require(parameters.first { $0.name == "page[size]" })
            #expect(size.schema == .integer(minimum: 1, maximum: 100) && size.defaultValue == 30)
            #expect(parameters.first { $0.name == "per_page" }?.defaultValue == 30)
            #expect(parameters.contains { $0.name == "page[number]" } && parameters.contains { $0.name == "page" })
        }
        let locations = try endpoint("GET /v2/users/{login}/locations").parameters.map(\.name)
        #expect(locations.contains("filter[active]") && locations.contains("range[begin_at]"))
        #expect(try endpoint("GET /v2/users").examples.queries == ["search[login]=…"])
        let stats = try endpoint("GET /v2/users/{login}/locations_stats").parameters.map(\.name)
        #expect(stats == ["login", "begin_at", "end_at", "time_zone"])
        // time_zone lists zone.tab's zones and UTC; the mock cuts days with Foundation's TimeZone, which knows each.
        let zone = try endpoint("GET /v2/users/{login}/locations_stats").parameters.first { $0.name == "time_zone" }
        #expect(zone?.schema == .string(values: Intra42.timeZones))
        #expect(Intra42.timeZones.count == 419 && Intra42.timeZones.contains("Europe/Paris"))
        #expect(Intra42.timeZones.filter { TimeZone(identifier: $0) == nil } == [])
        let campus = try endpoint("GET /v2/campus/{id}").parameters
        #expect(campus == [.path("id", .integer(minimum: 1), summary: "A campus id")])
    }

    // MARK: - Bodies as the API sends them

    @Test func userConformsAndDecodes() throws {
        let model = try #require(try endpoint("GET /v2/me").response)
        #expect(errors(Self.user, model) == [])
        // Members the app ignores are notes.
        let notes = findings(Self.user, model).filter { $0.severity == .note }.map(\.pointer.description)
        #expect(notes.contains("/first_name") && notes.contains("/cursus_users/0/cursus/slug"))
        let user = try spec.app.decoder.makeDecoder().decode(Intra42.User.self, from: Data(Self.user.utf8))
        #expect(user.isActive && user.location == nil && user.cursusUsers.map(\.level) == [8.34, 4.87])
        #expect(user.titlesUsers.first?.titleId == 12 && user.campus.first?.language.identifier == "fr")

        let inactive = Self.user.replacingOccurrences(of: #""active?": true"#, with: #""active?": null"#)
        #expect(
            errors(inactive, model) == [
                "/active?: expected boolean, found null; the model's property is not optional",
                "/active?: the app cannot decode Intra42.User: expected Bool, found null",
            ])
    }

    @Test func projectsUsersAcceptUnmarkedProjects() throws {
        let model = try #require(try endpoint("GET /v2/users/{login}/projects_users").response)
        let body = #"""
            [{"id": 1, "occurrence": 0, "final_mark": null, "status": "in_progress", "validated?": null,
              "current_team_id": 555, "project": {"id": 1314, "name": "Libft", "slug": "42cursus-libft"},
              "cursus_ids": [21], "marked_at": null, "marked": false, "closed_at": null,
              "created_at": "2023-11-06T09:12:45.123Z", "updated_at": "2023-11-06T09:12:45.123Z",
              "teams": [{"id": 555, "name": "jdoe's group", "status": "in_progress", "repo_url": null}]},
             {"id": 2, "occurrence": 1, "final_mark": 125, "status": "finished", "validated?": true,
              "current_team_id": 556, "project": {"name": "get_next_line", "slug": "42cursus-get_next_line"},
              "cursus_ids": [21], "marked_at": "2024-01-10T15:00:00.000Z", "closed_at": "2024-01-10T14:00:00.000Z",
              "created_at": "2023-12-01T09:00:00.000Z",
              "teams": [{"id": 556, "status": "finished", "repo_url": "git@vogsphere.42lyon.fr:vogsphere/intra-uuid"}]}]
            """#
        #expect(errors(body, model) == [])
        let projects = try JSONDecoder().decode([Intra42.ProjectUser].self, from: Data(body.utf8))
        #expect(projects.map(\.isValidated) == [nil, true] && projects.map(\.finalMark) == [nil, 125])
    }

    @Test func timestampsNeedMilliseconds() throws {
        let model = try #require(try endpoint("GET /v2/users/{login}/locations").response)
        let body = #"""
            [{"id": 1, "begin_at": "2025-11-14T08:01:02.000Z", "end_at": null, "host": "z3r4p5", "campus_id": 9,
              "primary": true},
             {"id": 2, "begin_at": "2025-11-13T08:01:02Z", "end_at": "2025-11-13T18:00:00.000Z", "host": "z3r4p6",
              "campus_id": 9, "primary": true}]
            """#
        #expect(
            errors(body, model) == [
                "/1/begin_at: expected string in date-time-fraction format, found \"2025-11-13T08:01:02Z\""
            ])
    }

    @Test func locationsStatsIsADayToDurationMap() throws {
        let model = try #require(try endpoint("GET /v2/users/{login}/locations_stats").response)
        #expect(model.schema == .ref("Intra42.LocationsStats") || model.schema == Intra42.LocationsStats.jsonSchema)
        let body = #"{"2025-11-14": "05:42:17.512345", "2025-11-13": "00:12:00"}"#
        #expect(findings(body, model).isEmpty)
        let stats = try JSONDecoder().decode(Intra42.LocationsStats.self, from: Data(body.utf8))
        #expect(stats.days["2025-11-14"] == "05:42:17.512345")
        #expect(try JSONDecoder().decode([String: String].self, from: Data(body.utf8)) == stats.days)
        #expect(
            errors(#"{"14/11/2025": "05:42:17"}"#, model) == [
                "/14~111~12025: key \"14/11/2025\" is not a valid string in date format"
            ])
    }

    @Test func slots() throws {
        let create = try endpoint("POST /v2/slots")
        let request = #"""
            {"slot": {"user_id": 98765, "begin_at": "2025-11-15T14:00:00Z", "end_at": "2025-11-15T14:45:00Z"}}
            """#
        #expect(findings(request, try #require(create.request)).isEmpty)
        let slots = #"""
            [{"id": 1, "begin_at": "2025-11-15T14:00:00.000Z", "end_at": "2025-11-15T14:45:00.000Z",
              "scale_team": null, "user": {"id": 98765, "login": "jdoe"}},
             {"id": 2, "begin_at": "2025-11-15T15:00:00.000Z", "end_at": "2025-11-15T15:15:00.000Z",
              "scale_team": "invisible", "user": "invisible"}]
            """#
        #expect(findings(slots, try #require(create.response)).isEmpty)
        let decoded = try JSONDecoder().decode([Intra42.Slot].self, from: Data(slots.utf8))
        #expect(decoded.map(\.scaleTeam) == [nil, "invisible"])
        let createRequest = try #require(create.request)
        #expect(
            errors(#"{"user_id": 98765}"#, createRequest) == [
                "/slot: required property is missing (expected Intra42.NewSlotRequest.Fields)",
                "/slot: the app cannot decode Intra42.NewSlotRequest: required key \"slot\" is missing",
            ])
    }

    @Test func token() throws {
        let token = try endpoint("POST /oauth/token")
        let request = #"""
            {"grant_type": "authorization_code", "client_id": "u-s4t2ud-abc", "client_secret": "s-s4t2ud-def",
             "code": "xyz", "redirect_uri": "myapp42://oauth/callback"}
            """#
        #expect(findings(request, try #require(token.request)).isEmpty)
        #expect(
            errors(#"{"grant_type": "password", "client_id": "a", "client_secret": "b"}"#, try #require(token.request))
                == [
                    "/grant_type: expected one of \"authorization_code\", \"refresh_token\", \"client_credentials\", "
                        + "found \"password\""
                ])
        let response = #"""
            {"access_token": "dd2a5c0b", "token_type": "bearer", "expires_in": 7200, "refresh_token": "0a9b",
             "scope": "public projects", "created_at": 1763217000, "secret_valid_until": 1765809000}
            """#
        #expect(errors(response, try #require(token.response)) == [])
        let clientCredentials = #"""
            {"access_token": "a", "token_type": "bearer", "expires_in": 7200, "scope": "public", "created_at": 1}
            """#
        #expect(errors(clientCredentials, try #require(token.response)) == [])
    }

    // MARK: - Schemas

    @Test func inferredSchemas() throws {
        let user = try object("Intra42.User")
        #expect(user["active?"] == Property("active?", .boolean))
        #expect(user["location"] == Property("location", .nullable(.string()), required: false))
        #expect(user["image"] == Property("image", .ref("Intra42.Image")))
        #expect(user["cursus_users"] == Property("cursus_users", .array(.ref("Intra42.CursusUser"))))
        #expect(
            user.properties.filter { !$0.required }.map(\.name) == [
                "email", "phone", "pool_month", "pool_year", "kind", "location",
            ])

        let project = try object("Intra42.ProjectUser")
        #expect(project["validated?"] == Property("validated?", .nullable(.boolean), required: false))
        #expect(project["created_at"] == Property("created_at", .string(format: .dateTimeWithFraction)))
        #expect(project["cursus_ids"] == Property("cursus_ids", .array(.integer())))

        let slot = try object("Intra42.Slot")
        #expect(slot["scale_team"] == Property("scale_team", .any, required: false))
        #expect(slot["user"] == Property("user", .any))

        let fields = try object("Intra42.NewSlotRequest.Fields")
        #expect(
            fields["begin_at"]
                == Property(
                    "begin_at",
                    .string(format: .dateTime, pattern: #"T[0-9]{2}:(00|15|30|45):00(\.0+)?([Zz]|[+-][0-9]{2}:(00|15|30|45))$"#)))
        #expect(fields.rules == [.after("end_at", "begin_at")])
        let campus = try object("Intra42.Campus")
        #expect(campus["language"] == Property("language", .ref("Intra42.Campus.Language")))
        #expect(try object("Intra42.UserCampus.Language").properties.map(\.name) == ["name", "identifier"])
        #expect(
            spec.definitions["Intra42.LocationsStats"] == nil
                || spec.definitions["Intra42.LocationsStats"] == Intra42.LocationsStats.jsonSchema)
    }

    // MARK: - Errors

    @Test func errorEnvelope() throws {
        let model = spec.errorEnvelope.model
        #expect(model.name == "Intra42.APIError")
        #expect(spec.errorEnvelope.make(.notFound, []) == ["error": "Not Found", "message": "Not Found"])
        #expect(
            spec.errorEnvelope.make(.unprocessableEntity, ["begin_at must be in the future", "end_at is invalid"]) == [
                "error": "Unprocessable Entity", "message": "begin_at must be in the future; end_at is invalid",
            ])
        let real = #"{"error": "Not authorized", "message": "The access token is invalid"}"#
        #expect(findings(real, model).isEmpty)
        // The `token-error-shape` ambiguity: an RFC 6749 error has no message.
        let oauthError = #"{"error": "invalid_grant", "error_description": "The grant is invalid"}"#
        #expect(
            errors(oauthError, model) == [
                "/message: required property is missing (expected string)",
                "/message: the app cannot decode Intra42.APIError: required key \"message\" is missing",
            ])
    }

    @Test func ambiguitiesAreRecorded() {
        let ids = spec.ambiguities.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.contains("validated-optionality") && ids.contains("timestamp-format"))
        for ambiguity in spec.ambiguities {
            if let endpoint = ambiguity.endpoint { #expect(spec.endpoint(endpoint) != nil, "\(ambiguity.id)") }
        }
    }
}
