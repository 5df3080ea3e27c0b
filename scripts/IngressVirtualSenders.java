import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Many short-lived virtual threads that each tell one actor once (an HTTP handler per request):
 * 100,000 per round, 9 rounds (the first 2 warm-up); prints the median ns per tell (from the first
 * thread's start until the actor has handled the last message) and the system's messagesSent before
 * and after close (exact: 100,000 per round). A source-launcher program against a bench jar:
 * {@code java -Xms2g -Xmx2g -cp JAR scripts/IngressVirtualSenders.java [N [ROUNDS]]}.
 */
public class IngressVirtualSenders {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        List<Double> perTell = new ArrayList<>();
        ActorSystem weft = ActorSystem.builder().name("virtual-senders").build();
        for (int k = 0; k < rounds; k++) {
            CountDownLatch done = new CountDownLatch(1);
            long[] seen = {0};
            ActorRef<Integer> c = weft.spawn("c" + k, self -> self.become(Receive.<Integer>handler()
                    .match(Integer.class, x -> {
                        if (++seen[0] == n) {
                            done.countDown();
                        }
                    }).build()));
            Integer msg = 7;
            long t0 = System.nanoTime();
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < n; i++) {
                    ex.execute(() -> c.tell(msg));
                }
            }
            if (!done.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("not every message handled within a minute");
            }
            perTell.add((System.nanoTime() - t0) / (double) n);
            weft.stop(c);
        }
        long sent = weft.metrics().messagesSent();
        weft.close();
        List<Double> s = new ArrayList<>(perTell.subList(2, perTell.size()));
        Collections.sort(s);
        System.out.printf(Locale.ROOT, "vthreads n=%d median %.1f ns/tell sent=%d (after close %d) rounds %s%n",
                n, s.get(s.size() / 2), sent, weft.metrics().messagesSent(), perTell);
    }
}
