extension ContractSet {
    /// A set with no contracts: every request is unmatched (what `mockapi record` serves, forwarding all of them).
    package static func empty(named name: String) -> ContractSet {
        ContractSet(contracts: [], routes: RouteTable(contracts: []), contractsDirectory: name, fixturesDirectory: name)
    }
}
