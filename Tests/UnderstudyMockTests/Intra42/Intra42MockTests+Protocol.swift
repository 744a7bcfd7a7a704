import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// Pagination, filters and the read endpoints.
extension Intra42MockTests {
    @Test func everyEndpointAnswersWhatTheSpecDescribes() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let (login, id) = harness.defaultUser
        let requests: [(String, String, JSONValue?)] = [
            ("POST /oauth/token", "/oauth/token", harness.tokenRequest("client_credentials")),
            ("GET /v2/me", "/v2/me", nil),
            ("GET /v2/users/{login}", "/v2/users/\(login)", nil),
            ("GET /v2/users/{login}/coalitions", "/v2/users/\(login)/coalitions", nil),
            ("GET /v2/users/{login}/coalitions_users", "/v2/users/\(login)/coalitions_users", nil),
            ("GET /v2/users/{login}/projects_users", "/v2/users/\(login)/projects_users?page[size]=100", nil),
            ("GET /v2/users/{login}/locations", "/v2/users/\(login)/locations?per_page=100", nil),
            ("GET /v2/users/{login}/locations_stats", "/v2/users/\(login)/locations_stats", nil),
            ("GET /v2/campus/{id}", "/v2/campus/9", nil),
            ("GET /v2/campus/{id}/locations", "/v2/campus/9/locations?per_page=100", nil),
            ("GET /v2/campus/{id}/events", "/v2/campus/9/events?per_page=100", nil),
            ("GET /v2/users", "/v2/users?per_page=100", nil),
            ("GET /v2/me/slots", "/v2/me/slots", nil),
            ("POST /v2/slots", "/v2/slots", slot(user: id, "2025-11-25T09:00:00.000Z", "2025-11-25T10:00:00.000Z")),
        ]
        #expect(Set(requests.map(\.0) + ["DELETE /v2/slots/{id}"]) == Set(spec.endpoints.map(\.id)))
        for (endpoint, target, body) in requests {
            let method = String(endpoint.prefix { $0 != " " })
            let reply = await harness.send(method, target, json: body, token: token)
            #expect(
                reply.status == spec.endpoint(endpoint)?.success.rawValue,
                "\(endpoint): \(Intra42Harness.text(reply.response.body))")
            expectConforms(reply.response.body, endpoint, in: spec)
            #expect(reply.json?.arrayValue?.isEmpty != true, "\(endpoint) answers something")
        }
        // Other users and the other campus conform too.
        for user in ["hdubois", "sleroy", "cmarti"] {
            for suffix in ["", "/coalitions", "/coalitions_users", "/projects_users", "/locations", "/locations_stats"]
            {
                let reply = await harness.send("GET", "/v2/users/\(user)\(suffix)", token: token)
                #expect(reply.status == 200)
                expectConforms(reply.response.body, "GET /v2/users/{login}\(suffix)", in: spec)
            }
        }
        for suffix in ["", "/locations", "/events"] {
            let reply = await harness.send("GET", "/v2/campus/1\(suffix)", token: token)
            expectConforms(reply.response.body, "GET /v2/campus/{id}\(suffix)", in: spec)
        }
        let slotID = try #require(
            await harness.send("GET", "/v2/me/slots", token: token).json?[0]?["id"]?.numberValue?.intValue)
        let deleted = await harness.send("DELETE", "/v2/slots/\(slotID)", token: token)
        #expect(deleted.status == 204)
        expectConforms(deleted.response.body, "DELETE /v2/slots/{id}", in: spec)
    }

    @Test func nullIsSentRatherThanOmitted() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let me = try #require(await harness.send("GET", "/v2/me", token: token).json)
        for key in ["email", "phone", "pool_month", "pool_year", "kind", "location"] {
            #expect(me[key] != nil, "\(key)")
        }
        let projects = try #require(
            await harness.send("GET", "/v2/users/cmartin/projects_users", token: token).json?.arrayValue)
        let unfinished = try #require(projects.first { $0["status"] == "searching_a_group" })
        #expect(unfinished["final_mark"] == .null)
        #expect(unfinished["validated?"] == .null)
        #expect(unfinished["marked_at"] == .null)
        #expect(unfinished["current_team_id"] == .null)
        let client = await harness.send("POST", "/oauth/token", json: harness.tokenRequest("client_credentials"))
        #expect(client.json?["refresh_token"] == .null)
        let created = try #require(projects.first?["created_at"]?.stringValue)
        #expect(created.hasSuffix("Z") && created.contains("."))
    }

    @Test func theSeedIsCoherent() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let me = try #require(await harness.send("GET", "/v2/me", token: token).json)
        #expect(me["campus"]?[0]?["id"] == 9)
        let campus = try #require(await harness.send("GET", "/v2/campus/9", token: token).json)
        #expect(me["campus"]?[0]?["time_zone"] == campus["time_zone"])
        #expect(campus["users_count"] == 9)
        let open = try #require(
            await harness.send("GET", "/v2/users/cmartin/locations?filter[active]=true", token: token).json?.arrayValue)
        #expect(open.count == 1)
        #expect(me["location"] == open[0]["host"])
        let coalitions = try #require(
            await harness.send("GET", "/v2/users/cmartin/coalitions", token: token).json?.arrayValue)
        let memberships = try #require(
            await harness.send("GET", "/v2/users/cmartin/coalitions_users", token: token).json?.arrayValue)
        #expect(coalitions.count == 2)
        #expect(coalitions.map { $0["id"] } == memberships.map { $0["coalition_id"] })
        #expect(memberships.contains { $0["rank"] == .null })
        let cursus = try #require(me["cursus_users"]?.arrayValue)
        #expect(cursus.map { $0["cursus"]?["name"] } == ["C Piscine", "42cursus"])
        #expect((cursus[1]["skills"]?.arrayValue?.count ?? 0) >= 10)
        #expect(me["titles_users"]?.arrayValue?.filter { $0["selected"] == true }.count == 1)
        let byID = await harness.send("GET", "/v2/users/\(harness.defaultUser.id)", token: token)
        #expect(byID.json?["login"] == "cmartin")
    }

    @Test func pagesAndTheirHeaders() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let base = "/v2/users/cmartin/projects_users"
        let first = await harness.send("GET", base, token: token)
        let total = try #require(first.response.header("X-Total").flatMap { Int($0) })
        #expect(first.json?.arrayValue?.count == 30)
        #expect(first.response.header("X-Page") == "1")
        #expect(first.response.header("X-Per-Page") == "30")
        let last = (total + 29) / 30
        #expect(
            first.response.header("Link")
                == "<\(base)?page=2>; rel=\"next\", <\(base)?page=\(last)>; rel=\"last\"")

        let middle = await harness.send("GET", "\(base)?page[size]=10&page[number]=3&sort=-created_at", token: token)
        #expect(middle.json?.arrayValue?.count == 10)
        #expect(middle.response.header("X-Page") == "3")
        #expect(middle.response.header("X-Per-Page") == "10")
        let links = Intra42Harness.links(middle.response.header("Link"))
        #expect(links["first"] == "\(base)?page%5Bsize%5D=10&page%5Bnumber%5D=1&sort=-created_at")
        #expect(links["prev"] == "\(base)?page%5Bsize%5D=10&page%5Bnumber%5D=2&sort=-created_at")
        #expect(links["next"] == "\(base)?page%5Bsize%5D=10&page%5Bnumber%5D=4&sort=-created_at")
        #expect(links["last"] == "\(base)?page%5Bsize%5D=10&page%5Bnumber%5D=\((total + 9) / 10)&sort=-created_at")
        let followed = await harness.send("GET", try #require(links["next"]), token: token)
        #expect(followed.response.header("X-Page") == "4")
        #expect(followed.json?[0] == (await harness.send("GET", "\(base)?page=4&per_page=10", token: token)).json?[0])

        let legacy = await harness.send("GET", "\(base)?page=2&per_page=50", token: token)
        #expect(legacy.json?.arrayValue?.count == min(50, total - 50))
        #expect(Intra42Harness.links(legacy.response.header("Link"))["first"] == "\(base)?page=1&per_page=50")

        let largest = await harness.send("GET", "\(base)?page=\(Int.max)&per_page=100", token: token)
        #expect(largest.status == 200)
        #expect(largest.json == [])
        let beyond = await harness.send("GET", "\(base)?page=99", token: token)
        #expect(beyond.status == 200)
        #expect(beyond.json == [])
        #expect(beyond.response.header("X-Total") == String(total))
        #expect(Intra42Harness.links(beyond.response.header("Link")).keys.sorted() == ["first", "prev"])

        let absolute = await harness.send(
            "GET", "\(base)?per_page=100", token: token, headers: ["Host": "mock.test:8042"])
        #expect(absolute.response.header("Link") == nil)
        // The engine caches GET answers without their headers: each host asks its own query here.
        let hosted = await harness.send("GET", "\(base)?page=1", token: token, headers: ["Host": "mock.test:8042"])
        #expect(Intra42Harness.links(hosted.response.header("Link"))["next"] == "http://mock.test:8042\(base)?page=2")
        let proxied = await harness.send(
            "GET", "\(base)?per_page=30", token: token,
            headers: ["X-Forwarded-Host": "api.example.com", "X-Forwarded-Proto": "https"])
        #expect(
            Intra42Harness.links(proxied.response.header("Link"))["next"]
                == "https://api.example.com\(base)?per_page=30&page=2")
    }

    @Test func badPageParametersAre400NamingTheParameter() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let cases = [
            ("page[size]=101", "page[size]"), ("page[size]=0", "page[size]"), ("per_page=1000", "per_page"),
            ("page=abc", "page"), ("page[number]=-1", "page[number]"), ("page[number]=1.5", "page[number]"),
        ]
        for (query, name) in cases {
            let reply = await harness.send("GET", "/v2/users/cmartin/projects_users?\(query)", token: token)
            #expect(reply.status == 400, "\(query)")
            #expect(reply.json?["message"]?.stringValue?.hasPrefix("query parameter \(name):") == true, "\(query)")
            expectConforms(reply.response.body, "GET /v2/users/{login}/projects_users", in: spec, status: 400)
        }
    }

    @Test func locationFiltersAndRanges() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let base = "/v2/users/cmartin/locations"
        let all = try #require(await harness.send("GET", "\(base)?per_page=100", token: token).json?.arrayValue)
        #expect(all.count > 30)
        let begins = all.compactMap { $0["begin_at"]?.stringValue }
        #expect(begins == begins.sorted(by: >))
        #expect(all[0]["end_at"] == .null)
        let closed = try #require(
            await harness.send("GET", "\(base)?filter[active]=false&per_page=100", token: token).json?.arrayValue)
        #expect(closed.count == all.count - 1)
        #expect(closed.allSatisfy { $0["end_at"] != .null })

        let range = "range[begin_at]=2025-11-10T00:00:00.000Z,2025-11-12T23:59:59.999Z"
        let ranged = try #require(await harness.send("GET", "\(base)?\(range)", token: token).json?.arrayValue)
        #expect(!ranged.isEmpty)
        #expect(
            ranged.allSatisfy {
                ($0["begin_at"]?.stringValue ?? "") >= "2025-11-10"
                    && ($0["begin_at"]?.stringValue ?? "") < "2025-11-13"
            })
        #expect(
            ranged.count
                == all.filter {
                    ($0["begin_at"]?.stringValue ?? "") >= "2025-11-10"
                        && ($0["begin_at"]?.stringValue ?? "") < "2025-11-13"
                }.count)
        let dates = try #require(
            await harness.send("GET", "\(base)?range[begin_at]=2025-11-10,2025-11-13", token: token).json?.arrayValue)
        #expect(dates == ranged)
        let reversed = await harness.send("GET", "\(base)?range[begin_at]=2025-11-13,2025-11-10", token: token)
        #expect(reversed.json == [])

        let bad: [(String, String)] = [
            // The descriptor's pattern refuses them before the intranet's own parsing.
            ("range[begin_at]=yesterday", "query parameter range[begin_at]: expected a string matching ^([0-9]{4}-"),
            ("range[begin_at]=2025-11-10", "query parameter range[begin_at]: expected a string matching ^([0-9]{4}-"),
            ("filter[active]=maybe", "query parameter filter[active]:"),
            ("filter[host]=z1r1p1", "query parameter filter[host]: not a filter of GET /v2/users/{login}/locations"),
            ("search[login]=x", "query parameter search[login]: not a filter"),
        ]
        for (query, message) in bad {
            let reply = await harness.send("GET", "\(base)?\(query)", token: token)
            #expect(reply.status == 400, "\(query)")
            #expect(
                reply.json?["message"]?.stringValue?.hasPrefix(message) == true,
                "\(query): \(reply.json?["message"] ?? .null)")
        }
    }

    @Test func campusLocationsAndEvents() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let active = try #require(
            await harness.send("GET", "/v2/campus/9/locations?filter[active]=true", token: token).json?.arrayValue)
        #expect(active.count >= 2)
        #expect(active.allSatisfy { $0["end_at"] == .null && $0["campus_id"] == 9 })
        let me = await harness.send("GET", "/v2/me", token: token)
        #expect(active.contains { $0["host"] == me.json?["location"] })
        #expect(Set(active.compactMap { $0["host"] }).count == active.count)
        let unknownFilter = await harness.send(
            "GET", "/v2/campus/9/locations?range[begin_at]=2025-11-01,2025-11-02", token: token)
        #expect(unknownFilter.status == 400)

        let now = Intra42Time.format(harness.clock.now)
        let future = try #require(
            await harness.send("GET", "/v2/campus/9/events?filter[future]=true", token: token).json?.arrayValue)
        let past = try #require(
            await harness.send("GET", "/v2/campus/9/events?filter[future]=false&per_page=100", token: token).json?
                .arrayValue)
        let all = await harness.send("GET", "/v2/campus/9/events", token: token)
        #expect(!future.isEmpty && !past.isEmpty)
        #expect(future.allSatisfy { ($0["begin_at"]?.stringValue ?? "") > now })
        #expect(past.allSatisfy { ($0["begin_at"]?.stringValue ?? "") <= now })
        #expect(all.response.header("X-Total") == String(future.count + past.count))
        #expect(all.json?.arrayValue?.count == 30)
        #expect([future, past].joined().allSatisfy { $0["campus_ids"]?.arrayValue?.contains(9) == true })
        let paris = try #require(
            await harness.send("GET", "/v2/campus/1/events?per_page=100", token: token).json?.arrayValue)
        #expect(!paris.isEmpty && paris.allSatisfy { $0["campus_ids"]?.arrayValue?.contains(1) == true })

        for target in ["/v2/campus/77", "/v2/campus/77/locations", "/v2/campus/77/events"] {
            let missing = await harness.send("GET", target, token: token)
            #expect(missing.status == 404)
            #expect(missing.json == ["error": "Not Found", "message": "campus 77 does not exist"])
        }
        #expect(await harness.send("GET", "/v2/campus/lyon", token: token).status == 400)
    }

    @Test func searchByLogin() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let found = await harness.send("GET", "/v2/users?search[login]=cmart", token: token)
        #expect(found.json?.arrayValue?.compactMap { $0["login"]?.stringValue } == ["cmarti", "cmartin"])
        #expect(found.response.header("X-Total") == "2")
        let upper = await harness.send("GET", "/v2/users?search%5Blogin%5D=MART", token: token)
        #expect(upper.json == found.json)
        let paged = await harness.send("GET", "/v2/users?search[login]=&page[size]=5", token: token)
        #expect(paged.json?.arrayValue?.count == 5)
        #expect(paged.response.header("X-Total") == "12")
        #expect(
            Intra42Harness.links(paged.response.header("Link"))["next"]
                == "/v2/users?search%5Blogin%5D=&page%5Bsize%5D=5&page%5Bnumber%5D=2")
        let summary = try #require(found.json?[1])
        #expect(summary["primary_campus_id"] == 9)
        #expect(await harness.send("GET", "/v2/users?search[login]=zzz", token: token).json == [])
        #expect(await harness.send("GET", "/v2/users?filter[login]=cmartin", token: token).status == 400)

        for target in [
            "/v2/users/nobody", "/v2/users/nobody/projects_users", "/v2/users/nobody/locations_stats",
            "/v2/users/999/coalitions",
        ] {
            let missing = await harness.send("GET", target, token: token)
            #expect(missing.status == 404, "\(target)")
            expectConforms(missing.response.body, "GET /v2/users/{login}", in: spec, status: 404)
        }
    }

    /// The API takes a user's numeric id wherever it takes a login: the lists the resource engine keeps under the
    /// login answer the same by id, their links naming the path as it was asked.
    @Test func aUsersListsAreTheSameByIdAsByLogin() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let id = try #require(
            await harness.send("GET", "/v2/users/cmartin", token: token).json?["id"]?.numberValue?.intValue)
        for suffix in ["/projects_users?page[size]=5", "/locations?per_page=5", "/locations?filter[active]=false"] {
            let byLogin = await harness.send("GET", "/v2/users/cmartin\(suffix)", token: token)
            let byID = await harness.send("GET", "/v2/users/\(id)\(suffix)", token: token)
            #expect(byLogin.status == 200 && byID.status == 200, "\(suffix)")
            #expect(byLogin.json?.arrayValue?.isEmpty == false && byID.json == byLogin.json, "\(suffix)")
            #expect(byID.response.header("X-Total") == byLogin.response.header("X-Total"), "\(suffix)")
        }
        let paged = await harness.send("GET", "/v2/users/\(id)/projects_users?page[size]=5", token: token)
        #expect(Intra42Harness.links(paged.response.header("Link"))["next"]?.hasPrefix("/v2/users/\(id)/") == true)
        #expect(await harness.send("GET", "/v2/users/999/projects_users", token: token).status == 404)
    }

    @Test func logTimePerDay() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let stats = try #require(
            await harness.send("GET", "/v2/users/cmartin/locations_stats", token: token).json?.objectValue)
        #expect(stats.count >= 15)
        #expect(stats.values.allSatisfy { StringFormat.time.matches($0.stringValue ?? "") })
        // The open session began this morning and counts until now.
        let today = try #require(stats["2025-11-18"]?.stringValue)
        #expect(today > "00:00:00.000000")
        harness.clock.advance(by: 600)
        let later = await harness.send("GET", "/v2/users/cmartin/locations_stats", token: token).json?["2025-11-18"]?
            .stringValue
        #expect(later.map { $0 > today } == true)

        let bounded = try #require(
            await harness.send(
                "GET", "/v2/users/cmartin/locations_stats?begin_at=2025-11-05&end_at=2025-11-11&time_zone=Europe/Paris",
                token: token
            ).json?.objectValue)
        #expect(bounded.keys.allSatisfy { $0 >= "2025-11-05" && $0 <= "2025-11-11" })
        #expect(!bounded.isEmpty)
        let utc = try #require(
            await harness.send("GET", "/v2/users/cmartin/locations_stats?time_zone=UTC", token: token).json?.objectValue
        )
        let total = { (stats: [String: JSONValue]) -> Int in
            stats.values.compactMap(\.stringValue).map { value in
                let parts = value.split(separator: ":").map { Double($0) ?? 0 }
                return Int(parts[0] * 3600 + parts[1] * 60 + parts[2])
            }.reduce(0, +)
        }
        // Cutting days in another zone moves time between days, not in or out.
        let paris = try #require(
            await harness.send("GET", "/v2/users/cmartin/locations_stats?time_zone=Europe/Paris", token: token).json?
                .objectValue)
        #expect(abs(total(utc) - total(paris)) <= paris.count + utc.count)
        let bad = await harness.send("GET", "/v2/users/cmartin/locations_stats?time_zone=Mars/Olympus", token: token)
        #expect(bad.status == 400)
        // The declared list of zones refuses it, in a message that names the first ten and the count.
        #expect(
            bad.json?["message"]?.stringValue?.hasPrefix(#"query parameter time_zone: expected one of "Africa/Abidjan""#)
                == true)
        #expect(bad.json?["message"]?.stringValue?.contains("… (419 in all), found \"Mars/Olympus\"") == true)
        #expect(
            await harness.send("GET", "/v2/users/cmartin/locations_stats?begin_at=soon", token: token).status == 400)
    }
}
