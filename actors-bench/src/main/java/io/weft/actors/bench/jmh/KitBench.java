package io.weft.actors.bench.jmh;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.workload.Scale;
import io.weft.actors.bench.workload.Workload;
import io.weft.actors.bench.workload.Workloads;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The {@code compare} workloads under JMH, at the {@code --quick} size: one invocation is one
 * validated run. Select with {@code -p workload=pingpong,threadring -p impl=weft,pekko}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class KitBench {

    /** The workload's name. */
    @Param({"pingpong", "threadring", "count", "fjthrput", "fjcreate", "fib", "chameneos", "big", "bndbuffer",
        "banking", "threading", "chameneos-redux", "tokenring", "pipes"})
    public String workload;

    /** The implementation's name. */
    @Param({"weft", "weft-thread", "pekko", "vthreads"})
    public String impl;

    private Kit kit;
    private Workload selected;

    /** Creates the implementation once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
        selected = Workloads.all().stream().filter(w -> w.name().equals(workload)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("workload: unknown \"" + workload + "\""));
        kit = Impl.parse(impl).create();
    }

    /** Closes the implementation. */
    @TearDown(Level.Trial)
    public void tearDown() {
        kit.close();
    }

    /**
     * One validated run.
     *
     * @throws Exception if the result is wrong
     */
    @Benchmark
    public void run() throws Exception {
        selected.run(kit, Scale.QUICK);
    }
}
