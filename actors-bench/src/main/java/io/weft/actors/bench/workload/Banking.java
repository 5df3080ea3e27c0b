package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * Savina banking: a teller runs N transfers (default 50,000) between random pairs of A accounts
 * (default 1,000). The source account debits and sends a credit to the destination, which
 * confirms to the teller. At the end the teller collects every balance: the total must equal the
 * initial total (money is conserved) and every transfer must be confirmed.
 */
public final class Banking extends Workload {

    private static final long INITIAL = 1_000_000_000L;
    private static final Object CONFIRMED = "confirmed";

    /** Creates the workload. */
    public Banking() {
        super("banking");
    }

    private static int accounts(Scale s) {
        return s.pick(20, 1_000, 1_000);
    }

    private static int transfers(Scale s) {
        return s.pick(1_000, 20_000, 50_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d accounts, %,d transfers", accounts(s), transfers(s));
    }

    @Override
    public int liveActors(Scale s) {
        return accounts(s) + 1;
    }

    /** Debit this account and credit {@code to}. */
    private record Transfer(long amount, Ref to, Ref teller) {
    }

    /** Credit this account and confirm to the teller. */
    private record Credit(long amount, Ref teller) {
    }

    /** Report the balance to the teller, then stop. */
    private record Close(Ref teller) {
    }

    /** A closed account's balance. */
    private record Balance(long amount) {
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int a = accounts(s);
        int n = transfers(s);
        Ref[] accounts = new Ref[a];
        for (int i = 0; i < a; i++) {
            accounts[i] = kit.spawn(new Handler() {
                long balance = INITIAL;

                @Override
                public void onMessage(Object m, Ctx c) {
                    if (m instanceof Transfer t) {
                        balance -= t.amount();
                        t.to().tell(new Credit(t.amount(), t.teller()));
                    } else if (m instanceof Credit cr) {
                        balance += cr.amount();
                        cr.teller().tell(CONFIRMED);
                    } else if (m instanceof Close cl) {
                        cl.teller().tell(new Balance(balance));
                        c.stop();
                    }
                }
            });
        }
        CompletableFuture<long[]> done = new CompletableFuture<>();
        Ref teller = kit.spawn(new Handler() {
            final SplittableRandom random = new SplittableRandom(42);
            int confirmed;
            int closed;
            long total;

            @Override
            public void onMessage(Object m, Ctx c) {
                if (m == START) {
                    for (int i = 0; i < n; i++) {
                        int from = random.nextInt(a);
                        int to = (from + 1 + random.nextInt(a - 1)) % a;
                        accounts[from].tell(new Transfer(1 + random.nextInt(1_000), accounts[to], c.self()));
                    }
                } else if (m == CONFIRMED) {
                    if (++confirmed == n) {
                        Close close = new Close(c.self());
                        for (Ref r : accounts) {
                            r.tell(close);
                        }
                    }
                } else if (m instanceof Balance b) {
                    total += b.amount();
                    if (++closed == a) {
                        done.complete(new long[] {confirmed, total});
                        c.stop();
                    }
                }
            }
        });
        teller.tell(START);
        long[] r = await(done);
        check("confirmed transfers", n, r[0]);
        check("total balance", a * INITIAL, r[1]);
    }
}
