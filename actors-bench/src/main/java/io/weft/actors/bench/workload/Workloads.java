package io.weft.actors.bench.workload;

import java.util.List;

/** Every workload, in the order the tables list them. */
public final class Workloads {

    private Workloads() {
    }

    /**
     * All workloads: the Savina micro set, then the seeds' experiments.
     *
     * @return a new list
     */
    public static List<Workload> all() {
        return List.of(new PingPong(), ThreadRing.savina(), new Count(), new FjThroughput(), new FjCreate(),
                Fib.savina(), Chameneos.savina(), new Big(), new BoundedBuffer(), new Banking(),
                ThreadRing.threading(), Chameneos.redux(), TokenRing.standard(), TokenRing.large(),
                Fib.seedFj(), new Integ(), new Pipes());
    }
}
