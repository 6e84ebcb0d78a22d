import Testing

@Suite struct ExploreTests {
    /// Every failing seed is printed with its kinds and the exact replay command; exit 1.
    @Test func printsEachFailingSeedWithItsReplayCommand() throws {
        let r = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "3", "--first", "5", "--jobs", "2", "--scale", "0.5"])
        #expect(r.status == 1)
        for seed in 5...7 {
            #expect(r.stdout.contains("seed \(seed): FAIL  taskCompletedTwice x"))
            #expect(r.stdout.contains("fleetsim replay scenarios/races/unguarded-completion.json --seed \(seed) --device "))
        }
        #expect(r.stdout.contains("--scale 0.5"))
        #expect(r.stdout.contains("explored 3 seed(s) from 5: 0 passed, 3 failed"))
        #expect(r.stdout.contains("| taskCompletedTwice "))
    }

    /// The correct logic on the same seeds: nothing fails, exit 0; the output does not
    /// depend on how many workers ran.
    @Test func correctLogicPassesAndOutputIsIndependentOfJobs() throws {
        let one = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "3", "--first", "5", "--jobs", "1", "--scale", "0.5", "--variants", "none"])
        let two = try CLI.run(["explore", "scenarios/races/unguarded-completion.json", "--seeds", "3", "--first", "5", "--jobs", "2", "--scale", "0.5", "--variants", "none"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("3 passed, 0 failed"))
        #expect(one.stdout == two.stdout)
    }

    /// `--swarm` draws the environment from the seed; a failing swarm seed's replay
    /// command carries `--swarm` so it reproduces.
    @Test func swarmReplayCommandsCarryTheFlag() throws {
        let r = try CLI.run(["explore", "scenarios/races/no-synchronize.json", "--seeds", "2", "--swarm", "--scale", "0.5"])
        #expect(r.stdout.contains("with swarm parameters"))
        if r.status == 1 { #expect(r.stdout.contains(" --swarm")) }
        #expect(try CLI.run(["explore", "scenarios/default.json"]).status == 2)
    }
}
