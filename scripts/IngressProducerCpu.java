import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The producer thread's own CPU time per tell on the ingress path: one platform thread tells one
 * {@code become} actor, then 100 round-robin, 5,000,000 messages per round, 9 rounds (the first 2
 * warm-up); prints the medians of the producer's CPU ns per tell (the thread's CPU clock around its
 * tell loop, so it depends on what else runs on the machine far less than wall time) and of the wall
 * ns per message (first tell until the last message is handled). A source-launcher program against a
 * bench jar: {@code java -Xms2g -Xmx2g -cp JAR scripts/IngressProducerCpu.java}.
 */
public class IngressProducerCpu {
    private static final Integer MSG = 7;

    private static double median(List<Double> all) {
        List<Double> s = new ArrayList<>(all.subList(2, all.size()));
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    public static void main(String[] args) throws Exception {
        long n = 5_000_000;
        int rounds = 9;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (ActorSystem weft = ActorSystem.builder().name("producer-cpu").build()) {
            for (int k : new int[] {1, 100}) {
                List<Double> cpu = new ArrayList<>();
                List<Double> wall = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    long each = n / k;
                    CountDownLatch done = new CountDownLatch(k);
                    List<ActorRef<Integer>> refs = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        long[] seen = {0};
                        refs.add(weft.spawn("c" + k + "-" + r + "-" + i, self -> self.become(Receive.<Integer>handler()
                                .match(Integer.class, x -> {
                                    if (++seen[0] == each) {
                                        done.countDown();
                                    }
                                }).build())));
                    }
                    @SuppressWarnings("unchecked")
                    ActorRef<Integer>[] targets = refs.toArray(new ActorRef[0]);
                    long c0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    for (long i = 0; i < each; i++) {
                        for (ActorRef<Integer> ref : targets) {
                            ref.tell(MSG);
                        }
                    }
                    long c1 = mx.getCurrentThreadCpuTime();
                    if (!done.await(5, TimeUnit.MINUTES)) {
                        throw new IllegalStateException("not every message handled within 5 minutes");
                    }
                    long t1 = System.nanoTime();
                    cpu.add((c1 - c0) / (double) (each * k));
                    wall.add((t1 - t0) / (double) (each * k));
                    refs.forEach(weft::stop);
                }
                System.out.printf(Locale.ROOT, "k=%d producer-cpu median %.2f wall median %.2f cpu %s%n", k, median(cpu), median(wall), cpu);
            }
        }
    }
}
