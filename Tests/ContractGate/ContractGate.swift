// Generated from docs/swift.md by scripts/readme-snippets: edit the block there, then run the script (the doc's block is the source, so swift format skips the file).
// swift-format-ignore-file
import MockAPIVerifyCommand
import TeamApp

@main enum ContractGate {
    static func main() async {
        await VerifyCommand.main(gate: VerifyGate(name: "contract-gate", packageFile: #filePath, answersFor: AppContractChecks.contracts),
                                 checks: AppContractChecks.all(), transport: TeamClient().transport)
    }
}
