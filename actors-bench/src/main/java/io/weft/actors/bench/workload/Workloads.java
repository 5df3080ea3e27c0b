package io.weft.actors.bench.workload;

import java.util.List;

/** Every workload, in the order the tables list them. */
public final class Workloads {

    private Workloads() {
    }

    /**
     * All workloads: the Savina micro set, then the experiments of the papers in docs/references.md (the last, streaming ping-pong,
     * is Prokopec 2016's batch-size workload).
     *
     * @return a new list
     */
    public static List<Workload> all() {
        return List.of(new PingPong(), ThreadRing.savina(), new Count(), new FjThroughput(), new FjCreate(),
                Fib.savina(), Chameneos.savina(), new Big(), new BoundedBuffer(), new Banking(),
                ThreadRing.threading(), Chameneos.redux(), TokenRing.standard(), TokenRing.large(),
                Fib.seedFj(), new Integ(), new Pipes(), new StreamingPingPong());
    }

    /**
     * Looks a workload up by its command-line name.
     *
     * @param name e.g. {@code pingpong}
     * @return a new instance
     * @throws IllegalArgumentException naming the valid choices if there is no such workload
     */
    public static Workload named(String name) {
        List<Workload> all = all();
        return all.stream().filter(w -> w.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown workload \"" + name + "\"; choose from "
                        + all.stream().map(Workload::name).toList()));
    }
}
