package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Savina bndbuffer: producers and consumers exchange items through a buffer manager actor with a
 * bounded buffer (default 50 slots, 40 producers and 40 consumers, 1,000 items per producer); a
 * producer makes its next item only when the manager has room for the last one. Every item must
 * be consumed exactly once: the count and the sum of the items are checked.
 */
public final class BoundedBuffer extends Workload {

    private static final int CAPACITY = 50;
    private static final int COST = 25;
    private static final Object PRODUCE = "produce";
    private static final Object EXIT = "exit";

    /** Creates the workload. */
    public BoundedBuffer() {
        super("bndbuffer");
    }

    private static int producers(Scale s) {
        return s.pick(4, 40, 40);
    }

    private static int items(Scale s) {
        return s.pick(100, 1_000, 1_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%d producers, %d consumers, %,d items each, %d slots", producers(s), producers(s), items(s),
                CAPACITY);
    }

    @Override
    public int liveActors(Scale s) {
        return 2 * producers(s) + 1;
    }

    /** An item and who made it. */
    private record Data(long value, Ref producer) {
    }

    /** A consumer ready for the next item. */
    private record Ready(Ref consumer) {
    }

    /** A producer that has made all its items. */
    private record ProducerDone() {
    }

    private static double work(long v) {
        double x = v;
        for (int i = 0; i < COST; i++) {
            x = compute(x + i);
        }
        return x;
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int p = producers(s);
        int c = p;
        int items = items(s);
        CompletableFuture<long[]> done = new CompletableFuture<>();
        AtomicInteger reported = new AtomicInteger();
        AtomicLong count = new AtomicLong();
        AtomicLong sum = new AtomicLong();
        Ref manager = kit.spawn(new Handler() {
            final ArrayDeque<Data> buffer = new ArrayDeque<>();
            final ArrayDeque<Ref> idleConsumers = new ArrayDeque<>();
            final ArrayDeque<Data> blocked = new ArrayDeque<>();
            int producersLeft = p;
            int consumersLeft = c;

            @Override
            public void onMessage(Object m, Ctx ctx) {
                if (m instanceof Data d) {
                    if (!idleConsumers.isEmpty()) {
                        idleConsumers.poll().tell(d);
                        d.producer().tell(PRODUCE);
                    } else if (buffer.size() < CAPACITY) {
                        buffer.add(d);
                        d.producer().tell(PRODUCE);
                    } else {
                        blocked.add(d);
                    }
                } else if (m instanceof Ready r) {
                    if (!buffer.isEmpty()) {
                        r.consumer().tell(buffer.poll());
                        if (!blocked.isEmpty()) {
                            Data d = blocked.poll();
                            buffer.add(d);
                            d.producer().tell(PRODUCE);
                        }
                    } else if (producersLeft == 0) {
                        exit(r.consumer(), ctx);
                    } else {
                        idleConsumers.add(r.consumer());
                    }
                } else if (m instanceof ProducerDone) {
                    if (--producersLeft == 0 && buffer.isEmpty()) {
                        while (!idleConsumers.isEmpty()) {
                            exit(idleConsumers.poll(), ctx);
                        }
                    }
                }
            }

            private void exit(Ref consumer, Ctx ctx) {
                consumer.tell(EXIT);
                if (--consumersLeft == 0) {
                    ctx.stop();
                }
            }
        });
        for (int i = 0; i < c; i++) {
            kit.spawn(new Handler() {
                long mySum;
                long myCount;
                double sink;
                Ready ready;

                @Override
                public void onMessage(Object m, Ctx ctx) {
                    if (m instanceof Data d) {
                        sink += work(d.value());
                        mySum += d.value();
                        myCount++;
                        manager.tell(ready);
                    } else if (m == START) {
                        ready = new Ready(ctx.self());
                        manager.tell(ready);
                    } else if (m == EXIT) {
                        sum.addAndGet(mySum);
                        count.addAndGet(sink == -1 ? 0 : myCount);
                        ctx.stop();
                        if (reported.incrementAndGet() == c) {
                            done.complete(new long[] {count.get(), sum.get()});
                        }
                    }
                }
            }).tell(START);
        }
        for (int i = 0; i < p; i++) {
            long base = (long) i * items;
            kit.spawn(new Handler() {
                int made;
                double sink;

                @Override
                public void onMessage(Object m, Ctx ctx) {
                    if (made == items) {
                        manager.tell(new ProducerDone());
                        ctx.stop();
                        return;
                    }
                    long v = base + made++;
                    sink += work(v);
                    manager.tell(new Data(sink == -1 ? 0 : v, ctx.self()));
                }
            }).tell(PRODUCE);
        }
        long[] r = await(done);
        long total = (long) p * items;
        check("items consumed", total, r[0]);
        check("sum of items", total * (total - 1) / 2, r[1]);
    }
}
