package io.weft.actors.bench.jmh;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one {@code tell} to a react actor from a non-actor thread, including the receiver's
 * handling (the benchmark waits, every 1,024 messages, until the actor has caught up, so the
 * mailbox stays short).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TellBench {

    private ActorSystem system;
    private ActorRef<Object> counter;
    private final AtomicLong handled = new AtomicLong();
    private long sent;

    /** Starts the system and the counting actor. */
    @Setup(Level.Trial)
    public void setUp() {
        system = ActorSystem.builder().name("tell-bench").build();
        Receive<Object, Void> count = Receive.<Object>handler().matchAny(m -> handled.lazySet(handled.get() + 1)).build();
        counter = system.spawn((ActorContext<Object> self) -> self.loop(() -> self.react(count)));
    }

    /** Closes the system. */
    @TearDown(Level.Trial)
    public void tearDown() {
        system.close();
    }

    /** One tell. */
    @Benchmark
    public void tell() {
        counter.tell(Boolean.TRUE);
        if ((++sent & 1023) == 0) {
            while (handled.get() < sent - 64) {
                Thread.onSpinWait();
            }
        }
    }
}
