import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The fields shared by the create and update commands, with the rules a schema cannot express.
struct VideGreniersEventDetails {
    let title: String
    let description: String
    let eventType: VideGreniers.EventType
    let startDate: Double
    let endDate: Double
    let street: String
    let city: String
    let postalCode: String
    let country: String
    let state: String?
    let latitude: Double?
    let longitude: Double?
    let contactEmail: String?
    let contactPhone: String?
    let specialInstructions: String?
    let entryFeeAmount: String?
    let entryFeeCurrency: String?
    let allowsEarlyBird: Bool
    let earlyBirdTime: String?
    let earlyBirdFeeAmount: String?
    let earlyBirdFeeCurrency: String?
    let categoryId: UUID?

    init(_ command: VideGreniers.CreateEventCommand, json: JSONValue?) {
        title = command.title
        description = command.description
        eventType = command.eventType
        startDate = command.startDate.timeIntervalSinceReferenceDate
        endDate = command.endDate.timeIntervalSinceReferenceDate
        street = command.street
        city = command.city
        postalCode = command.postalCode
        country = command.country
        state = command.state
        latitude = command.latitude
        longitude = command.longitude
        contactEmail = command.contactEmail
        contactPhone = command.contactPhone
        specialInstructions = command.specialInstructions
        // The literal keeps the scale the client sent (2.00 stays 2.00), like a .NET decimal.
        entryFeeAmount = json?["entryFeeAmount"]?.numberLiteral
        entryFeeCurrency = command.entryFeeCurrency
        allowsEarlyBird = command.allowsEarlyBird
        earlyBirdTime = command.earlyBirdTime
        earlyBirdFeeAmount = json?["earlyBirdFeeAmount"]?.numberLiteral
        earlyBirdFeeCurrency = command.earlyBirdFeeCurrency
        categoryId = command.categoryId
    }

    init(_ command: VideGreniers.UpdateEventCommand, json: JSONValue?) {
        self.init(
            VideGreniers.CreateEventCommand(
                title: command.title, description: command.description, eventType: command.eventType,
                startDate: command.startDate, endDate: command.endDate, street: command.street, city: command.city,
                postalCode: command.postalCode, country: command.country, state: command.state,
                latitude: command.latitude, longitude: command.longitude, contactEmail: command.contactEmail,
                contactPhone: command.contactPhone, specialInstructions: command.specialInstructions,
                entryFeeAmount: command.entryFeeAmount, entryFeeCurrency: command.entryFeeCurrency,
                allowsEarlyBird: command.allowsEarlyBird, earlyBirdTime: command.earlyBirdTime,
                earlyBirdFeeAmount: command.earlyBirdFeeAmount, earlyBirdFeeCurrency: command.earlyBirdFeeCurrency,
                categoryId: command.categoryId),
            json: json)
    }

    /// Every broken rule that depends on the state (the descriptor's rules were checked before), each message
    /// starting with the field it is about.
    func problems(in current: VideGreniersMock.State) -> [String] {
        var problems: [String] = []
        if let categoryId, current.category(categoryId) == nil {
            problems.append("categoryId: no category has the id \(categoryId.uuidString.lowercased())")
        }
        return problems
    }

    func validate(in state: VideGreniersMock.State) throws {
        let problems = problems(in: state)
        if !problems.isEmpty { throw MockError(.badRequest, messages: problems) }
    }

    /// Copies the details onto an event; missing coordinates come from the city (or the centre of France).
    func apply(to event: inout VideGreniersMock.Event) {
        event.title = title
        event.description = description
        event.eventType = eventType
        event.startDate = startDate
        event.endDate = endDate
        event.street = street
        event.city = city
        event.postalCode = postalCode
        event.country = country
        event.state = state
        let centre = VideGreniersMock.cityCentres[VideGreniersMock.folded(city)]
        event.latitude = latitude ?? centre?.latitude ?? VideGreniersMock.franceCentre.latitude
        event.longitude = longitude ?? centre?.longitude ?? VideGreniersMock.franceCentre.longitude
        event.contactEmail = contactEmail
        event.contactPhone = contactPhone
        event.specialInstructions = specialInstructions
        event.entryFeeAmount = entryFeeAmount
        event.entryFeeCurrency = entryFeeCurrency?.uppercased()
        event.allowsEarlyBird = allowsEarlyBird
        event.earlyBirdTime = allowsEarlyBird ? earlyBirdTime : nil
        event.earlyBirdFeeAmount = allowsEarlyBird ? earlyBirdFeeAmount : nil
        event.earlyBirdFeeCurrency = allowsEarlyBird ? earlyBirdFeeCurrency?.uppercased() : nil
        event.categoryId = categoryId
    }
}
