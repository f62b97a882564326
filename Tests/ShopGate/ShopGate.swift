import Foundation
import MockAPIVerifyCommand
import ShopApp

/// The shop client's gate, as a team's would be: `VerifyCommand.main` with its checks. The bug to
/// plant is `SHOP_BUG` (a `ShopClient.Bug`), the copies of the six routes `SHOP_COPIES`.
@main enum ShopGate {
    static func main() async {
        let environment = ProcessInfo.processInfo.environment
        let bug = environment["SHOP_BUG"].flatMap(ShopClient.Bug.init(rawValue:))
        let copies = environment["SHOP_COPIES"].flatMap(Int.init) ?? 1
        await VerifyCommand.main(gate: VerifyGate(name: "shop-gate"), checks: ShopClient.checks(bug: bug, copies: copies))
    }
}
