import Foundation

extension ResourceGraph {
    /// The graph as JSON (`understudy list --resources --format json`, and the golden files of the tests): every
    /// resource with its paths, identifier, parent, item model, basis and operations, then the other endpoints.
    public func json(api: String) -> JSONValue {
        [
            "api": .string(api),
            "resources": .array(resources.map(\.json)),
            "others": .array(others.map(JSONValue.string)),
        ]
    }

    /// The graph as text: one block per resource, its operations indented, then the other endpoints.
    ///
    /// ```
    /// pets  /pets  /pets/{petId}  petId <-> id  Pet  [path shape, identifier member]
    ///   list    GET /pets  items at /
    ///   create  POST /pets  item at /
    /// ```
    public func text(api: String) -> String {
        var output = "\(api): \(resources.count) resource\(resources.count == 1 ? "" : "s")\n"
        for resource in resources {
            var line = "  \(resource.name)  \(resource.collection)  \(resource.item?.template ?? "-")"
            line += "  \(resource.identifier?.description ?? "no identifier")"
            line += "  \(resource.modelName)"
            if let parent = resource.parent { line += "  under \(parent.resource) (\(parent.parameter))" }
            line += "  [\(resource.basis.map(\.rawValue).joined(separator: ", "))]"
            output += line + "\n"
            let width = resource.operations.map(\.role.rawValue.count).max() ?? 0
            for operation in resource.operations {
                var entry = "    " + operation.role.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                entry += "  \(operation.endpoint)"
                if let answer = operation.answer {
                    let what = operation.role == .list || operation.role == .search ? "items" : "item"
                    entry += "  \(what) at \(answer.displayString)"
                }
                if let element = operation.element { entry += ", each at \(element.displayString)" }
                output += entry + "\n"
            }
        }
        if !others.isEmpty { output += "  other endpoints: \(others.joined(separator: ", "))\n" }
        return output
    }
}

extension Resource {
    /// The item's model name, or `inline` for a schema written in place.
    public var modelName: String {
        if case .ref(let name) = schema.nonNull { return name }
        return schema == .any ? "any" : "inline"
    }

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name),
            "collection": .string(collection.template),
            "model": .string(modelName),
            "basis": .array(basis.map { .string($0.rawValue) }),
            "operations": .array(
                operations.map { operation in
                    var entry: [String: JSONValue] = [
                        "role": .string(operation.role.rawValue), "endpoint": .string(operation.endpoint),
                    ]
                    if let answer = operation.answer { entry["answer"] = .string(answer.displayString) }
                    if let element = operation.element { entry["element"] = .string(element.displayString) }
                    return .object(entry)
                }),
        ]
        if let item { object["item"] = .string(item.template) }
        if let identifier {
            var entry: [String: JSONValue] = ["parameter": .string(identifier.parameter)]
            if let member = identifier.member { entry["member"] = .string(member) }
            object["identifier"] = .object(entry)
        }
        if let parent {
            object["parent"] = ["resource": .string(parent.resource), "parameter": .string(parent.parameter)]
        }
        return .object(object)
    }
}
