/// The JSON body of `update_backing`: `{"amount": 45, "reward_id": 9002, "location_id": 2475687}`.
struct BackingChange: Encodable, Sendable {
    var amount: Double
    var rewardId: Int
    /// Left out of the JSON when `nil`: the contract accepts a missing key, not a `null`.
    var locationId: Int?
}
