/// The body of `POST /v1/projects/{id}/star`: the project as it is after starring.
public struct StarEnvelope: Codable, Sendable, Equatable {
    public var project: Project
}
