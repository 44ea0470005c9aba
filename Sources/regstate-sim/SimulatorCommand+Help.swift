import RegStateSimulation

extension SimulatorCommand {
    /// The one-line synopsis, printed with a usage error.
    static let usage = """
        usage: regstate-sim (--seed N | --seeds A..B | --time-box SECONDS [--start N]) [OPTIONS]
               regstate-sim --seed N --shrink [OPTIONS]

        """

    /// What `regstate-sim --help` prints: every option, with its default.
    static var help: String {
        let worlds = SimulationWorld.allCases.map(\.rawValue).joined(separator: "|")
        let faults = SimulationFault.allCases.map(\.rawValue).joined(separator: ",")
        let disks = SimulatedStorageKind.allCases.map(\.rawValue).joined(separator: "|")
        return """
            regstate-sim: runs seeded lives of the real RegState engine in a simulated world (processes sharing a store,
            a provider and backend behind a faulty network, crashes, disk faults, a clock that jumps) and checks the
            engine's invariants in every life. A failing seed replays exactly.

            \(usage)
            Which lives:
              --seed N               one life
              --seeds A..B           the lives of seeds A to B
              --time-box SECONDS     as many lives as fit, from --start N (default: a seed drawn from the clock)
            Each life:
              --steps K              actions per life (default 40)
              --processes P          engine instances sharing one store, 1 to 4 (default 2)
              --world W              \(worlds)|mixed
                                     (default: drawn from the seed; mixed: each life's world, disk and processes
                                     drawn from its seed across every world, with runs and failures per world)
              --disk D               \(disks) (default files: the real file store and journal on a
                                     simulated file system; model: the store's model; keychain: the model as Apple's
                                     Keychain with the App Group lock and a device that locks;
                                     shared-session: Keychain items on a device that locks, also mid-write and
                                     mid-renewal, with the real lock file and journal on the simulated file system)
              --skip STEPS           steps to leave out, such as 3,7-9 (what a shrunk replay prints)
              --faults-off KINDS     faults to turn off, from \(faults)
            Output:
              --trace                every line of each life (actions, requests, faults, events, store writes)
              --quiet                only failures and the summary
            Failures:
              --shrink               with --seed: shorten a failing life, print the shortest failing replay
              --inject-failure NAME  test only: an invariant that fails on purpose (crash-while-offline)
              --help                 this text

            The summary line: runs, failures, virtual-hours (the time the lives lived through, on their clocks),
            wall-clock seconds, runs per second. Exit status: 0 every life passed, 1 a life failed, 64 bad usage.

            """
    }
}
