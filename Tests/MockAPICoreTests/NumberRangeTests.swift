import Foundation
import MockAPICore
import Testing

/// Every number from outside goes through `NumberRange`: none may reach a trapping conversion.
struct NumberRangeTests {
    @Test(arguments: ["inf", "infinity", "-inf", "nan", "1e300", "1e309", "9.3e15", "-1", "0x10", "", " 5", "5 ", "1_000", "٣"])
    func hostileDelaysAreNotMilliseconds(_ text: String) {
        #expect(NumberRange.delayMilliseconds.read(text) == nil, "\(text)")
        #expect(Latency(text) == nil, "\(text)")
    }

    @Test func delaysWithinTheRangeAreRead() {
        #expect(Latency("800") == .fixed(800))
        #expect(Latency("200-800") == .uniform(min: 200, max: 800))
        #expect(Latency("lognormal:300:0.5") == .logNormal(median: 300, sigma: 0.5))
        #expect(Latency("3600000") == .fixed(3_600_000))
        #expect(Latency("3600001") == nil)
        #expect(Latency("0-1e300") == nil)
        #expect(Latency("800-200") == nil)
        #expect(Latency("lognormal:1:1000") == nil)
        #expect(Latency("801", within: NumberRange.delayMilliseconds.capped(at: 800)) == nil)
    }

    @Test func aLogNormalTailIsCutAtTheCeiling() {
        let latency = Latency.logNormal(median: 1_000, sigma: 10)
        for _ in 0..<1_000 {
            let sample = latency.sample(atMost: 2_000)
            #expect(sample.isFinite && sample >= 0 && sample <= 2_000)
        }
    }

    @Test func aPreferDelayOutOfRangeIsAViolationNamingTheRange() {
        for value in ["inf", "1e16", "0-1e300", "lognormal:1:1000", "60001", ""] {
            let prefer = Prefer("delay=\(value)", delayCeiling: 60_000)
            #expect(prefer.delay == nil)
            #expect(prefer.timingViolation?.message.contains("0 to 60000 ms") == true, "delay=\(value)")
        }
        #expect(Prefer("delay=60000", delayCeiling: 60_000).delay == .fixed(60_000))
    }

    @Test func aContractDelayOutOfRangeIsALoadErrorWithItsPath() throws {
        for delay in ["1e300", "-5", "3600001", #"{"min": 0, "max": 1e300}"#, #"{"median": 100, "sigma": 1000}"#] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("numbers-\(UUID().uuidString)")
            let contracts = folder.appendingPathComponent("contracts"), fixtures = folder.appendingPathComponent("fixtures")
            try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data(#"{"name": "slow", "request": {"method": "GET", "path": "/slow"}, "responses": {"default": {"status": 204, "delay": \#(delay)}}}"#.utf8)
                .write(to: contracts.appendingPathComponent("slow.json"))
            #expect {
                try ContractSet.load(contracts: contracts, fixtures: fixtures)
            } throws: { error in
                let text = "\(error)"
                return text.contains("slow.json") && text.contains("$.responses.default.delay") && text.contains("0 to 3600000 ms")
            }
        }
    }
}
