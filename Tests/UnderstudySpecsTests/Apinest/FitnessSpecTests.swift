import Foundation
import Testing
import UnderstudyCore

@testable import UnderstudySpecs

struct FitnessSpecTests {
    let spec = Fitness.spec

    /// Schema findings (errors only) and the app's decode failure for a document example.
    func verdict(_ text: String, _ model: ModelReference) throws -> (schema: [String], decode: String?) {
        let body = try JSONValue(parsing: text)
        let schema = Validator(definitions: spec.definitions).validate(body, against: model.schema)
            .filter { $0.severity == .error }.map(\.summary)
        let decode = model.decodeError(Data(text.utf8), settings: spec.app.decoder)
            .flatMap { DecodeVerdict.diagnostic(for: $0, body: body, model: model.name) }?.summary
        return (schema, decode)
    }

    @Test func endpointsMatchTheInventory() {
        #expect(
            spec.endpoints.map(\.id) == [
                "POST /activities", "GET /activities", "GET /activities/{id}", "POST /activities/{id}/complete",
                "POST /activities/{id}/join", "POST /activities/{id}/leave",
            ])
        #expect(spec.id == "fitness")
        #expect(spec.title == "apinest fitness activities")
        #expect(spec.wire == DecoderSettings(dates: .iso8601))
        #expect(spec.app == AppContract(decoder: DecoderSettings(dates: .iso8601)))
    }

    @Test func descriptorsFollowTheGuide() throws {
        let create = try #require(spec.endpoint("POST /activities"))
        #expect(create.auth == .required && create.success == .created && create.body == .required)
        #expect(create.request?.name == "Apinest.CreateActivityRequest")
        #expect(create.response?.name == "Apinest.Activity")

        let list = try #require(spec.endpoint("GET /activities"))
        #expect(list.auth == .optional && list.body == .none && list.request == nil)
        #expect(list.response?.name == "[Apinest.Activity]")
        let visibility = Parameter.query(
            "visibility", .string(values: ["public", "friends"]),
            summary: "Only the activities with this visibility.", meaning: .equals("/visibility"))
        #expect(list.parameters == [visibility])

        let complete = try #require(spec.endpoint("POST /activities/{id}/complete"))
        #expect(complete.body == .optional && complete.success == .ok)
        #expect(complete.errors == [.badRequest, .unauthorized, .forbidden, .notFound])

        let idEndpoints = [
            "GET /activities/{id}", "POST /activities/{id}/complete", "POST /activities/{id}/join",
            "POST /activities/{id}/leave",
        ]
        for id in idEndpoints {
            let endpoint = try #require(spec.endpoint(id))
            #expect(endpoint.parameters.first { $0.location == .path }?.schema == .string(format: .objectId))
            #expect(endpoint.errors.contains(.notFound))
        }
        #expect(spec.endpoint("GET /activities/{id}")?.auth == .optional)
        #expect(spec.endpoint("POST /activities/{id}/leave")?.response?.name == "Apinest.ActivityLeaveResponse")
    }

    @Test func conformingExamplesValidateAndDecode() throws {
        let create = try #require(spec.endpoint("POST /activities"))
        let complete = try #require(spec.endpoint("POST /activities/{id}/complete"))
        let cases: [(String?, ModelReference?)] = [
            (create.examples.request, create.request),
            (complete.examples.request, complete.request),
            (complete.examples.responses[200], complete.response),
        ]
        for (text, model) in cases {
            let verdict = try verdict(try #require(text), try #require(model))
            #expect(verdict.schema.isEmpty)
            #expect(verdict.decode == nil)
        }
    }

    @Test func createdActivityExampleFailsOnlyOnItsPlaceholderIds() throws {
        let create = try #require(spec.endpoint("POST /activities"))
        let verdict = try verdict(try #require(create.examples.responses[201]), try #require(create.response))
        #expect(
            verdict.schema == [
                #"/_id: expected string in objectid format, found "65a1b2c3d4e5f6g7h8i9j0k1""#,
                #"/participantIds/0: expected string in objectid format, found "65a1b2c3d4e5f6g7h8i9j0k0""#,
                #"/creator/_id: expected string in objectid format, found "65a1b2c3d4e5f6g7h8i9j0k0""#,
            ])
        #expect(verdict.decode == nil)
    }

    @Test func activityListExampleIsIncomplete() throws {
        let list = try #require(spec.endpoint("GET /activities"))
        let verdict = try verdict(try #require(list.examples.responses[200]), try #require(list.response))
        #expect(
            verdict.schema == [
                #"/0/_id: expected string in objectid format, found "65a1b2c3d4e5f6g7h8i9j0k1""#,
                #"/0/participantIds/0: expected string in objectid format, found "...""#,
                #"/0/creator/_id: expected string in objectid format, found "...""#,
                "/0/createdAt: required property is missing (expected string)",
                "/0/updatedAt: required property is missing (expected string)",
            ])
        #expect(
            verdict.decode
                == #"/0/createdAt: the app cannot decode [Apinest.Activity]: required key "createdAt" is missing"#)
    }

    @Test func activitiesResponseDescribesTheSameBareArray() throws {
        var inference = SchemaInference(settings: spec.wire)
        #expect(try inference.schema(for: Apinest.ActivitiesResponse.self) == .ref("Apinest.ActivitiesResponse"))
        #expect(inference.definitions["Apinest.ActivitiesResponse"] == .array(.ref("Apinest.Activity")))
        let list = try #require(spec.endpoint("GET /activities")?.examples.responses[200])
        // The example lacks `createdAt`; with it, the wrapper decodes the bare array as the service does.
        let completed = list.replacingOccurrences(
            of: #""isCompleted": false,"#,
            with: #""isCompleted": false, "createdAt": "2025-11-14T10:30:00.000Z", "updatedAt": "x","#)
        let decoded = try spec.app.decoder.makeDecoder().decode(Apinest.ActivitiesResponse.self, from: Data(completed.utf8))
        #expect(decoded.activities.map(\.title) == ["Weekend Football Match"])
    }

    @Test func activitySchemaIsPinned() throws {
        guard case .object(let activity) = spec.definitions["Apinest.Activity"] else {
            Issue.record("Activity is not an object schema")
            return
        }
        #expect(
            activity.properties.map(\.name) == [
                "_id", "sportType", "title", "description", "location", "latitude", "longitude", "date", "time",
                "participants", "participantIds", "level", "visibility", "isCompleted", "creator", "createdAt",
                "updatedAt",
            ])
        #expect(activity["_id"] == Property("_id", .string(format: .objectId)))
        #expect(activity["description"] == Property("description", .nullable(.string()), required: false))
        #expect(activity["latitude"] == Property("latitude", .nullable(.number()), required: false))
        #expect(activity["date"] == Property("date", .string(format: .dateTime)))
        #expect(activity["participantIds"] == Property("participantIds", .array(.string(format: .objectId))))
        // A free string with the creation form's vocabulary as examples, not an enumeration.
        #expect(
            activity["level"]
                == Property("level", .string(StringConstraints(examples: ["Beginner", "Intermediate", "Advanced"]))))
        #expect(activity["visibility"] == Property("visibility", .string(values: ["public", "friends"])))
        #expect(activity["creator"] == Property("creator", .ref("Apinest.ActivityCreator")))
        #expect(activity["createdAt"] == Property("createdAt", .string()))

        #expect(
            spec.definitions["Apinest.ActivityCreator"]
                == .object([
                    Property("_id", .string(format: .objectId)), Property("name", .string()),
                    Property("email", .nullable(.string(format: .email)), required: false),
                    Property("profileImageUrl", .nullable(.string()), required: false),
                ]))
        guard case .object(let request) = spec.definitions["Apinest.CreateActivityRequest"] else {
            Issue.record("CreateActivityRequest is not an object schema")
            return
        }
        #expect(request["date"] == Property("date", .string(format: .date)))
        #expect(request["time"] == Property("time", .string(format: .dateTime)))
        #expect(request["visibility"] == Property("visibility", .string(values: ["public", "friends"])))
        #expect(request["participants"] == Property("participants", .integer(minimum: 1)))
        #expect(request["latitude"]?.schema == .nullable(.number(minimum: -90, maximum: 90)))
        #expect(
            spec.definitions["Apinest.CompleteActivityRequest"]
                == .object([
                    Property("durationMinutes", .nullable(.integer(minimum: 0, maximum: 1_440)), required: false),
                    Property("distanceKm", .nullable(.number(minimum: 0, maximum: 1_000)), required: false),
                ]))
    }

    @Test func errorEnvelopeIsNestStyle() throws {
        let body = spec.errorEnvelope.make(.forbidden, ["Only the creator can complete this activity"])
        #expect(body == ["message": "Only the creator can complete this activity", "statusCode": 403])
        let joined = spec.errorEnvelope.make(.badRequest, ["title is too short", "date is invalid"])
        #expect(joined == ["message": "title is too short; date is invalid", "statusCode": 400])
        #expect(spec.errorEnvelope.make(.notFound, []) == ["message": "Not Found", "statusCode": 404])
        #expect(spec.errorEnvelope.model.name == "Apinest.APIErrorResponse")
        let validator = Validator(definitions: spec.definitions)
        #expect(validator.validate(body, against: spec.errorEnvelope.model.schema).isEmpty)
        #expect(spec.errorEnvelope.model.decodeError(Data(body.serialized().utf8), settings: spec.app.decoder) == nil)

        // NestJS's own validation answer carries an array of messages: the app cannot decode it.
        let nest =
            #"{"message": ["title must be longer than 3 characters"], "error": "Bad Request", "statusCode": 400}"#
        #expect(spec.errorEnvelope.model.decodeError(Data(nest.utf8), settings: spec.app.decoder) != nil)
    }

    @Test func ambiguitiesAreRecorded() {
        #expect(
            spec.ambiguities.map(\.id) == [
                "object-id-format", "activity-date-format", "activity-list-example-incomplete",
                "activities-response-wrapper", "activities-friends-visibility", "activity-detail-auth",
                "activity-level-sport-values", "activity-request-rules", "activity-leave-undocumented",
                "post-action-status",
                "error-message-shape",
            ])
        let endpoints = Set(spec.endpoints.map(\.id))
        #expect(spec.ambiguities.allSatisfy { $0.endpoint.map { endpoints.contains($0) } ?? true })
    }

}
