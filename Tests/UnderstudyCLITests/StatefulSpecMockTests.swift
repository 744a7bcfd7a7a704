import ArgumentParser
import Foundation
import Testing
import UnderstudyCheck
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyOpenAPI
import UnderstudySpecs
import UnderstudyTestSupport

@testable import UnderstudyCLI

/// `understudy mock --spec` keeps what is written, on real sockets: the shelter document's owners (integer ids the
/// server assigns, a paged envelope, `Location`) and their nested pets (UUIDs), as a REST server backed by a
/// database answers them. `--stateless` keeps the fixture answers; `--state FILE` keeps the items across restarts.
struct StatefulSpecMockTests {
    typealias Answer = LoopbackHTTP.Answer

    /// Runs `understudy mock --spec shelter.yaml` in process with `arguments`, gives `body` its base URL.
    static func withShelter<T>(_ arguments: [String] = [], _ body: (String) async throws -> T) async throws -> T {
        let running = try await Mock.parse(["--spec", SpecMockTests.shelter, "--port", "0"] + arguments).start()
        do {
            let result = try await body(running[0].baseURL)
            for entry in running { await entry.server.stop() }
            return result
        } catch {
            for entry in running { await entry.server.stop() }
            throw error
        }
    }

    @Test func createdItemsAreReadListedChangedAndDeleted() async throws {
        try await Self.withShelter { base in
            let before = try await LoopbackHTTP.send("GET", "\(base)/owners?limit=100")
            let total = try #require(before.json?["total"]?.numberValue?.intValue)

            let created = try await LoopbackHTTP.send(
                "POST", "\(base)/owners", ["name": "Léa Girard", "city": "Nantes", "id": 7])
            #expect(created.status == 201)
            let owner = try #require(created.json)
            let id = try #require(owner["id"]?.numberValue?.intValue)
            // `id` is readOnly: the server's sequence names the owner, not the client.
            #expect(id != 7)
            #expect(owner["name"] == "Léa Girard" && owner["city"] == "Nantes")
            #expect(owner["createdAt"]?.stringValue?.hasSuffix("Z") == true)
            #expect(created.headers["location"] == "\(base)/owners/\(id)")

            let read = try await LoopbackHTTP.send("GET", "\(base)/owners/\(id)")
            #expect(read.status == 200 && read.json == owner)
            let listed = try await LoopbackHTTP.send("GET", "\(base)/owners?city=Nantes&limit=100")
            #expect(listed.json?["data"]?.arrayValue?.contains(owner) == true)
            #expect(listed.json?["data"]?.arrayValue?.allSatisfy { $0["city"] == "Nantes" } == true)
            let after = try await LoopbackHTTP.send("GET", "\(base)/owners?limit=100")
            #expect(after.json?["total"]?.numberValue?.intValue == total + 1)

            let patched = try await LoopbackHTTP.send("PATCH", "\(base)/owners/\(id)", ["city": "Brest"])
            #expect(patched.status == 200)
            #expect(patched.json?["city"] == "Brest" && patched.json?["name"] == "Léa Girard")
            #expect(patched.json?["createdAt"] == owner["createdAt"])
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(id)").json?["city"] == "Brest")

            #expect(try await LoopbackHTTP.send("DELETE", "\(base)/owners/\(id)").status == 204)
            let gone = try await LoopbackHTTP.send("GET", "\(base)/owners/\(id)")
            #expect(gone.status == 404)
            #expect(gone.headers["content-type"] == "application/problem+json")
            #expect(gone.json?["status"] == 404)
            #expect(try await LoopbackHTTP.send("DELETE", "\(base)/owners/\(id)").status == 404)
        }
    }

    /// A built-in backend that `UnderstudyMock` gives no overlay is served from its resources alone: a spec folder and
    /// a line in ``Specs/builtIn`` make a stateful mock, in process as on a socket.
    @Test func aBuiltInAPIWithoutAnOverlayKeepsItsItems() async throws {
        let spec = try #require(try SpecFiles.specs(api: nil, documents: [SpecMockTests.shelter]).first)
        let api = MockAPI(BuiltInAPI(spec))
        let behaviour = try await api.makeBehaviour(configuration: MockConfiguration())
        #expect(behaviour is ResourceMock)
        let engine = MockEngine(behaviour: behaviour)
        let base = spec.basePath
        let created = await engine.respond(
            to: RawRequest(
                method: "POST", path: "\(base)/owners", headers: ["content-type": "application/json"],
                body: Array(#"{"name": "Inès Morel", "city": "Lyon"}"#.utf8)))
        #expect(created.status == 201)
        let id = try #require(try JSONValue(parsing: created.body)["id"]?.numberValue?.intValue)
        let read = await engine.respond(to: RawRequest(method: "GET", path: "\(base)/owners/\(id)"))
        #expect(read.status == 200)
        #expect(try JSONValue(parsing: read.body)["name"] == "Inès Morel")
        // The overlays keep their own behaviours.
        #expect(try await MockAPI.videgreniers.makeBehaviour(configuration: MockConfiguration()) is VideGreniersMock)
    }

    @Test func nestedItemsLiveUnderTheirParentAndGoWithIt() async throws {
        try await Self.withShelter { base in
            let first = try #require(
                try await LoopbackHTTP.send("POST", "\(base)/owners", ["name": "Noah Petit"]).json?["id"]?.numberValue?
                    .intValue)
            let second = try #require(
                try await LoopbackHTTP.send("POST", "\(base)/owners", ["name": "Jade Roux"]).json?["id"]?.numberValue?
                    .intValue)
            let created = try await LoopbackHTTP.send(
                "POST", "\(base)/owners/\(first)/pets", ["name": "Moka", "species": "cat"])
            #expect(created.status == 201)
            let pet = try #require(created.json)
            let petID = try #require(pet["id"]?.stringValue)
            #expect(UUID(uuidString: petID) != nil)
            // The parent's id goes in the member named after its path parameter.
            #expect(pet["ownerId"] == .integer(first))

            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(first)/pets").json == [pet])
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(first)/pets?species=dog").json == [])
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(second)/pets").json == [])
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(second)/pets/\(petID)").status == 404)
            let adopted = try await LoopbackHTTP.send("POST", "\(base)/owners/\(first)/pets/\(petID):adopt")
            #expect(adopted.status == 200 && adopted.json?["id"] == .string(petID))

            let replaced = try await LoopbackHTTP.send(
                "PUT", "\(base)/owners/\(first)/pets/\(petID)", ["name": "Moka", "species": "dog", "adopted": true])
            #expect(replaced.json?["species"] == "dog" && replaced.json?["id"] == .string(petID))

            // Under an owner that does not exist, nothing is created.
            #expect(
                try await LoopbackHTTP.send("POST", "\(base)/owners/999999/pets", ["name": "Rex", "species": "dog"])
                    .status
                    == 404)
            // An owner's pets go with it.
            #expect(try await LoopbackHTTP.send("DELETE", "\(base)/owners/\(first)").status == 204)
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(first)/pets/\(petID)").status == 404)
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(first)/pets").status == 404)
        }
    }

    /// `GET /species/{species}/pets` lists the pets of every owner (its path does not follow theirs), and its path
    /// parameter filters them (`x-understudy-meaning: equals /species`) rather than naming a parent.
    @Test func aListAcrossParentsIsFilteredByItsPath() async throws {
        try await Self.withShelter { base in
            var pets: [JSONValue] = []
            for (name, species) in [("Moka", "cat"), ("Rex", "dog"), ("Pixel", "cat")] {
                let owner = try #require(
                    try await LoopbackHTTP.send("POST", "\(base)/owners", ["name": .string("Owner of \(name)")]).json?["id"]?
                        .numberValue?.intValue)
                let created = try await LoopbackHTTP.send(
                    "POST", "\(base)/owners/\(owner)/pets", ["name": .string(name), "species": .string(species)])
                pets.append(try #require(created.json))
            }
            let cats = try #require(try await LoopbackHTTP.send("GET", "\(base)/species/cat/pets").json?.arrayValue)
            let dogs = try #require(try await LoopbackHTTP.send("GET", "\(base)/species/dog/pets").json?.arrayValue)
            #expect(cats.allSatisfy { $0["species"] == "cat" } && dogs.allSatisfy { $0["species"] == "dog" })
            #expect(cats.contains(pets[0]) && cats.contains(pets[2]) && !cats.contains(pets[1]))
            #expect(dogs.contains(pets[1]))
            #expect(Set(cats.compactMap { $0["ownerId"] }).count >= 2)
        }
    }

    @Test func listsPageAndSearchesFilter() async throws {
        try await Self.withShelter { base in
            for name in ["A", "B", "C"] {
                _ = try await LoopbackHTTP.send(
                    "POST", "\(base)/owners", ["name": .string("Owner \(name)"), "city": "Arles"])
            }
            let all = try #require(try await LoopbackHTTP.send("GET", "\(base)/owners?limit=100").json)
            let total = try #require(all["total"]?.numberValue?.intValue)
            let page = try #require(try await LoopbackHTTP.send("GET", "\(base)/owners?limit=2&offset=1").json)
            #expect(page["total"] == .integer(total))
            #expect(page["data"]?.arrayValue == Array(all["data"]!.arrayValue![1...2]))
            let found = try await LoopbackHTTP.send("POST", "\(base)/owners/query", ["city": "Arles"])
            #expect(found.json?.arrayValue?.map { $0["name"] } == ["Owner A", "Owner B", "Owner C"])
        }
    }

    /// What a document declares of its lists is what `mock --spec` does, stateful or not: VideGreniers' exported
    /// document pages its events in the body (`page`/`pageSize`, described under `/pagination`) and declares the
    /// meanings of `eventType` (equals `/eventType`) and `sortBy`/`sortDescending`; 42's declares `filter[active]`
    /// (sessions without `end_at`), on a list that is no resource's and answers generated sessions.
    @Test func declaredMeaningsAndPagesInTheBodyAreHonoured() async throws {
        let headers = ["Authorization": "Bearer \(FixtureMock.readyToken)"]
        func served(_ spec: APISpec) async throws -> MockServer {
            let document = try OpenAPIImport.spec(Array(try OpenAPIExport.json(spec).utf8), source: "\(spec.id).json")
            return try await MockServer.start(try await ResourceMock(spec: document))
        }
        let videGreniers = try await served(VideGreniers.spec)
        let events = videGreniers.baseURL.absoluteString + "/api/events"
        let all = try #require(try await LoopbackHTTP.send("GET", "\(events)?pageSize=100", headers: headers).json)
        let items = try #require(all["data"]?.arrayValue)
        #expect(items.count >= 3)
        #expect(all["pagination"]?["totalCount"] == .integer(items.count))
        let second = try #require(
            try await LoopbackHTTP.send("GET", "\(events)?page=2&pageSize=1", headers: headers).json)
        #expect(second["data"]?.arrayValue == [items[1]])
        #expect(second["pagination"]?["page"] == 2)
        #expect(second["pagination"]?["totalPages"] == .integer(items.count))
        #expect(second["pagination"]?["hasPreviousPage"] == true)
        #expect(second["pagination"]?["hasNextPage"] == .bool(items.count > 2))
        // The last page the document allows, far beyond the list, is an empty one (`aPageBeyondAnyListIsEmpty`
        // overflows an Int).
        for query in ["page=2147483647&pageSize=100"] {
            let beyond = try await LoopbackHTTP.send("GET", "\(events)?\(query)", headers: headers)
            #expect(beyond.status == 200 && beyond.json?["data"] == [], "\(query)")
            #expect(
                beyond.json?["pagination"]?["hasNextPage"] == false
                    && beyond.json?["pagination"]?["hasPreviousPage"] == true)
        }
        let type = try #require(items[0]["eventType"])
        let typed = try #require(
            try await LoopbackHTTP.send(
                "GET", "\(events)?pageSize=100&eventType=\(type.serialized())", headers: headers
            )
            .json?["data"]?.arrayValue)
        #expect(!typed.isEmpty && typed.allSatisfy { $0["eventType"] == type })
        #expect(typed.count == items.filter { $0["eventType"] == type }.count)
        let newest = try #require(
            try await LoopbackHTTP.send(
                "GET", "\(events)?pageSize=100&sortBy=StartDate&sortDescending=true", headers: headers
            ).json?["data"]?.arrayValue)
        let starts = newest.compactMap { $0["startDate"]?.stringValue.flatMap { Date(iso8601: $0) } }
        #expect(starts.count == items.count && starts == starts.sorted(by: >), "\(starts)")
        await videGreniers.stop()

        let intra = try await served(Intra42.spec)
        let locations = intra.baseURL.absoluteString + "/v2/users/louisdo/locations"
        let every = try #require(try await LoopbackHTTP.send("GET", locations, headers: headers).json?.arrayValue)
        let open = try #require(
            try await LoopbackHTTP.send("GET", "\(locations)?filter%5Bactive%5D=true", headers: headers).json?
                .arrayValue)
        let closed = try #require(
            try await LoopbackHTTP.send("GET", "\(locations)?filter%5Bactive%5D=false", headers: headers).json?
                .arrayValue)
        #expect(
            open.allSatisfy { ($0["end_at"] ?? .null) == .null }
                && closed.allSatisfy { ($0["end_at"] ?? .null) != .null })
        #expect(open.count + closed.count == every.count && every.count >= 2, "\(every)")
        await intra.stop()
    }

    /// A page so far beyond a list that its offset overflows an Int is an empty page: Schemathesis' stateful phase
    /// sent `page=144768541&pageSize=54710419689283656` to xero-projects' tasks, and the mock trapped on a negative
    /// start before this was guarded.
    @Test func aPageBeyondAnyListIsEmpty() async throws {
        let spec = try SpecMockTests.spec(
            SpecMockTests.documents.appendingPathComponent("public/xero-projects.yaml").path)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec))
        let headers = ["authorization": "Bearer \(FixtureMock.readyToken)", "xero-tenant-id": "understudy"]
        let projects = await engine.respond(
            to: RawRequest(method: "GET", path: "\(spec.basePath)/Projects", headers: headers))
        let project = try #require(
            try JSONValue(parsing: projects.body)["items"]?.arrayValue?.first?["projectId"]?.stringValue,
            "\(projects.status)")
        for query in [
            "page=144768541&pageSize=54710419689283656", "page=9223372036854775807&pageSize=9223372036854775807",
        ] {
            let tasks = await engine.respond(
                to: RawRequest(
                    method: "GET", path: "\(spec.basePath)/Projects/\(project)/Tasks", query: query, headers: headers))
            #expect(tasks.status == 200, "\(query): \(String(decoding: tasks.body, as: UTF8.self))")
            #expect(try JSONValue(parsing: tasks.body)["items"] == [], "\(query)")
        }
    }

    /// Schemathesis created a Petstore `Order` with `id` 9223372036854775807, then one without an id: the next of the
    /// sequence overflowed and the mock died. Past the largest integer, a new id is the smallest one no item has.
    @Test func aCreateAfterTheLargestIntegerIdGetsAFreeOne() async throws {
        let spec = try SpecMockTests.spec(
            SpecMockTests.documents.appendingPathComponent("public/swagger-petstore-v2.yaml").path)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec))
        let json = ["content-type": "application/json"]
        let largest = await engine.respond(
            to: RawRequest(
                method: "POST", path: "\(spec.basePath)/store/order", headers: json,
                body: Array(#"{"id": 9223372036854775807, "petId": 1, "quantity": 1}"#.utf8)))
        #expect(largest.status == 200)
        var ids: Set<Int> = []
        for _ in 0..<3 {
            let created = await engine.respond(
                to: RawRequest(
                    method: "POST", path: "\(spec.basePath)/store/order", headers: json, body: Array("{}".utf8)))
            #expect(created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")
            ids.insert(try #require(try JSONValue(parsing: created.body)["id"]?.numberValue?.intValue))
        }
        // Three new ids, each its own order's, and small enough for the document's `orderId` (at most 5).
        #expect(ids.count == 3 && ids.allSatisfy { (1...5).contains($0) }, "\(ids)")
        for id in ids {
            let read = await engine.respond(to: RawRequest(method: "GET", path: "\(spec.basePath)/store/order/\(id)"))
            #expect(read.status == 200 && (try? JSONValue(parsing: read.body)["id"]) == .integer(id))
        }
    }

    /// Gotify answers its plugins' configuration in YAML (`application/x-yaml`, an object): the mock answered it
    /// empty, which Schemathesis read as `null`. It is written as JSON text, a YAML 1.2 document, stateful or not.
    @Test func aYAMLAnswerIsTheModelsTree() async throws {
        let spec = try SpecMockTests.spec(SpecMockTests.documents.appendingPathComponent("public/gotify.json").path)
        for behaviour: any MockBehaviour in [FixtureMock(spec: spec), try await ResourceMock(spec: spec)] {
            let answer = await MockEngine(behaviour: behaviour).respond(
                to: RawRequest(method: "GET", path: "/plugin/1/config", headers: ["x-gotify-key": "understudy"]))
            #expect(answer.status == 200)
            #expect(answer.headers.first { $0.name == "Content-Type" }?.value == "application/x-yaml")
            #expect(
                try JSONValue(parsing: answer.body).objectValue != nil,
                "\(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    /// An upload is validated as the form it is (RFC 7578): Gotify's application image needs its `file` part, so a
    /// form without it is refused with the document's 400, and one with it is taken. Before, multipart bodies were
    /// taken as they came.
    @Test func aMultipartFormIsValidated() async throws {
        let spec = try SpecMockTests.spec(SpecMockTests.documents.appendingPathComponent("public/gotify.json").path)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec))
        func upload(_ parts: String) async -> MockResponse {
            let body = parts + "--understudy--\r\n"
            return await engine.respond(
                to: RawRequest(
                    method: "POST", path: "/application/1/image",
                    headers: [
                        "x-gotify-key": "understudy", "content-type": "multipart/form-data; boundary=understudy",
                    ],
                    body: Array(body.utf8)))
        }
        let file = "--understudy\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nPNG\r\n"
        let other = "--understudy\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhi\r\n"
        let missing = await upload(other)
        #expect(missing.status == 400)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("file"))
        #expect(await upload(other + file).status == 200)
        let broken = await engine.respond(
            to: RawRequest(
                method: "POST", path: "/application/1/image",
                headers: ["x-gotify-key": "understudy", "content-type": "multipart/form-data; boundary=elsewhere"],
                body: Array((file + "--understudy--\r\n").utf8)))
        #expect(broken.status == 400)
    }

    /// A `Prefer` answer is the document's (Prism's way of choosing one), and it changes nothing.
    @Test func preferredAnswersTouchNoState() async throws {
        try await Self.withShelter { base in
            let before = try await LoopbackHTTP.send("GET", "\(base)/owners").json?["total"]
            let dynamic = try await LoopbackHTTP.send(
                "POST", "\(base)/owners", ["name": "Nobody"], headers: ["Prefer": "dynamic=true"])
            #expect(dynamic.status == 201)
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners").json?["total"] == before)
        }
    }

    @Test func statelessAnswersEveryIdFromTheDocument() async throws {
        try await Self.withShelter(["--stateless"]) { base in
            let owner = try await LoopbackHTTP.send("GET", "\(base)/owners/999999")
            #expect(owner.status == 200)
            #expect(owner.json?["id"]?.numberValue != nil && owner.json?["name"]?.stringValue != nil)
            #expect(try await LoopbackHTTP.send("DELETE", "\(base)/owners/999999").status == 204)
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/999999").status == 200)
        }
    }

    @Test func theStateFileKeepsItemsAcrossRestartsUntilAReset() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-spec-state-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = ["--state", folder.appendingPathComponent("state.sqlite").path]
        let id = try await Self.withShelter(state) { base in
            try #require(
                try await LoopbackHTTP.send("POST", "\(base)/owners", ["name": "Kept Owner"]).json?["id"]?.numberValue?
                    .intValue)
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("state-shelter.sqlite").path))
        try await Self.withShelter(state) { base in
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(id)").json?["name"] == "Kept Owner")
            // The next id continues the sequence.
            let next = try await LoopbackHTTP.send("POST", "\(base)/owners", ["name": "Next Owner"]).json?["id"]
            #expect(next == .integer(id + 1))
            #expect(
                try await LoopbackHTTP.send(
                    "POST", "\(base.replacingOccurrences(of: "/v2", with: ""))/__understudy/reset"
                ).status == 200)
            #expect(try await LoopbackHTTP.send("GET", "\(base)/owners/\(id)").status == 404)
        }
    }
}

extension StatefulSpecMockTests {
    /// A document shaped as a large telephony API's (issue "Safe and quiet against a real staging server", items 3 and
    /// 4): `/Addresses.json` lists and creates the items of `/Addresses/{Sid}.json`, forms in PascalCase are answered in
    /// snake_case, and the list envelope's paging members describe the page. The mock keeps what a create says and
    /// `check` reaches every operation as a guest.
    @Test func suffixedPathsFormsAndPagingLinksOfATelephonyDocument() async throws {
        let document = SpecMockTests.documents.appendingPathComponent("telephony.yaml").path
        let running = try await Mock.parse(["--spec", document, "--port", "0"]).start()
        let base = running[0].baseURL + "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef"
        let basic = ["Authorization": "Basic " + Data("user:secret".utf8).base64EncodedString()]
        let form = basic.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 }

        var made: [JSONValue] = []
        for name in ["Ann", "Bea", "Cy"] {
            let created = try await LoopbackHTTP.send(
                "POST", "\(base)/Addresses.json", headers: form,
                text: "CustomerName=\(name)&Street=1+Main+St&FriendlyName=\(name)%27s&Tags=home&Tags=work")
            #expect(created.status == 201, "\(created.text)")
            made.append(try #require(created.json))
        }
        let first = made[0]
        let sid = try #require(first["sid"]?.stringValue)
        // Its own id, in the format the document gives (`^AD[0-9a-fA-F]{32}$`), not the account's.
        #expect(sid.range(of: "^AD[0-9a-fA-F]{32}$", options: .regularExpression) != nil, "\(sid)")
        #expect(first["account_sid"] == "AC0123456789abcdef0123456789abcdef")
        #expect(first["customer_name"] == "Ann" && first["friendly_name"] == "Ann's" && first["street"] == "1 Main St")
        #expect(first["tags"] == ["home", "work"])

        let read = try await LoopbackHTTP.send("GET", "\(base)/Addresses/\(sid).json", headers: basic)
        #expect(read.status == 200 && read.json == first)
        let updated = try await LoopbackHTTP.send(
            "POST", "\(base)/Addresses/\(sid).json", headers: form, text: "FriendlyName=Office")
        #expect(updated.json?["friendly_name"] == "Office" && updated.json?["customer_name"] == "Ann", "\(updated.text)")

        let page = try await LoopbackHTTP.send("GET", "\(base)/Addresses.json?PageSize=2", headers: basic)
        let path = "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Addresses.json"
        #expect(page.json?["addresses"]?.arrayValue?.count == 2)
        #expect(page.json?["page"] == 0 && page.json?["page_size"] == 2 && page.json?["start"] == 0 && page.json?["end"] == 1)
        #expect(page.json?["next_page_uri"] == .string("\(path)?PageSize=2&Page=1"), "\(page.text)")
        #expect(page.json?["previous_page_uri"] == .null)
        let last = try await LoopbackHTTP.send("GET", "\(base)/Addresses.json?PageSize=2&Page=1", headers: basic)
        #expect(last.json?["addresses"]?.arrayValue?.count == 1)
        #expect(last.json?["next_page_uri"] == .null && last.json?["previous_page_uri"] == .string("\(path)?PageSize=2&Page=0"))

        let deleted = try await LoopbackHTTP.send("DELETE", "\(base)/Addresses/\(sid).json", headers: basic)
        #expect(deleted.status == 204)
        #expect(try await LoopbackHTTP.send("GET", "\(base)/Addresses/\(sid).json", headers: basic).status != 200)

        // A guest run reaches every operation, with no error.
        let spec = try SpecMockTests.spec(document)
        var options = CheckOptions(baseURL: running[0].baseURL, allowWrites: true)
        options.credentials.headers = ["Authorization": basic["Authorization"]!]
        let report = await Checker(spec: spec, options: options).run()
        #expect(report.findings.filter { $0.severity == .error }.map(\.summary) == [])
        #expect(report.endpoints.filter { $0.skipped != nil }.map(\.endpoint) == [])
        for entry in running { await entry.server.stop() }
    }
}
