package io.weft.actors.bench;
import com.typesafe.config.ConfigFactory;
import io.weft.actors.ActorSystem;
import java.util.ArrayList;
import java.util.List;
/** One handler style per JVM: 10 rounds of 3,000,000 tells from main; prints every round and the median of rounds 5-10. */
public class OneStyle {
  public static void main(String[] a) throws Exception {
    int rounds = 10, n = 3_000_000;
    List<Double> r = new ArrayList<>();
    if (a[0].equals("PEKKO")) {
      String cfg = "pekko { loglevel = WARNING, stdout-loglevel = WARNING, log-dead-letters = off, actor.default-dispatcher { executor = fork-join-executor, fork-join-executor { parallelism-min = 2, parallelism-factor = 1.0, parallelism-max = 2 }, throughput = 50 } }";
      org.apache.pekko.actor.ActorSystem p = org.apache.pekko.actor.ActorSystem.create("one", ConfigFactory.parseString(cfg).withFallback(ConfigFactory.load()));
      for (int i = 0; i < rounds; i++) r.add(Ingress.producers(p, 1, n));
      p.terminate();
    } else {
      Ingress.Style style = Ingress.Style.valueOf(a[0]);
      try (ActorSystem weft = ActorSystem.builder().name("one").build()) {
        for (int i = 0; i < rounds; i++) r.add(Ingress.oneProducer(weft, style, n));
      }
    }
    StringBuilder sb = new StringBuilder();
    for (double d : r) sb.append(String.format(" %.1f", d));
    System.out.printf("%-12s median of rounds 5-10 %6.1f ns/message  rounds:%s%n", a[0], Stats.median(r.subList(4, rounds)), sb);
    System.exit(0);
  }
}
