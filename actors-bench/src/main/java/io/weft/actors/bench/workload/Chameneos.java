package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chameneos: creatures meet in pairs at a mall (a broker actor) until N meetings have happened,
 * changing colour at each meeting. Savina chameneos (100 creatures, 200,000 meetings) and the
 * Benchmarks Game chameneos-redux (two games: 3 and 10 creatures, N=6,000,000, with its exact
 * output format). Every meeting is counted by both creatures, so the total is 2 x N, and no
 * creature may meet itself.
 */
public final class Chameneos extends Workload {

    /** The three colours. */
    public enum Colour {
        /** blue. */
        BLUE,
        /** red. */
        RED,
        /** yellow. */
        YELLOW;

        /**
         * The colour after meeting {@code other}.
         *
         * @param other the other creature's colour
         * @return this colour if both are equal, else the third colour
         */
        public Colour complement(Colour other) {
            if (this == other) {
                return this;
            }
            return values()[3 - ordinal() - other.ordinal()];
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Colour[] REDUX_FIRST = {Colour.BLUE, Colour.RED, Colour.YELLOW};
    private static final Colour[] REDUX_SECOND = {Colour.BLUE, Colour.RED, Colour.YELLOW, Colour.RED, Colour.YELLOW,
        Colour.BLUE, Colour.RED, Colour.YELLOW, Colour.RED, Colour.BLUE};
    private static final String[] DIGITS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"};
    private static final Object FADE = "fade";

    private final boolean redux;

    private Chameneos(String name, boolean redux) {
        super(name);
        this.redux = redux;
    }

    /**
     * @return Savina chameneos
     */
    public static Chameneos savina() {
        return new Chameneos("chameneos", false);
    }

    /**
     * @return Benchmarks Game chameneos-redux
     */
    public static Chameneos redux() {
        return new Chameneos("chameneos-redux", true);
    }

    private int meetings(Scale s) {
        return redux ? s.pick(600, 30_000, 6_000_000) : s.pick(1_000, 30_000, 200_000);
    }

    @Override
    public String describe(Scale s) {
        return redux ? String.format("two games (3 and 10 creatures), N=%,d", meetings(s))
                : String.format("100 creatures, %,d meetings", meetings(s));
    }

    @Override
    public int liveActors(Scale s) {
        return redux ? 11 : 101;
    }

    /** A creature offering itself for a meeting. */
    private record Meet(Ref creature, Colour colour, int id) {
    }

    /** The partner a creature met. */
    private record Mate(Colour colour, int id) {
    }

    /** One game's outcome per creature. */
    record Game(Colour[] start, int[] meetings, int[] selfMeetings) {
        long total() {
            long t = 0;
            for (int m : meetings) {
                t += m;
            }
            return t;
        }
    }

    /**
     * Plays one game: the creatures start with {@code colours}; the mall allows {@code n} meetings.
     *
     * @param kit the implementation
     * @param colours the starting colours
     * @param n the meetings
     * @return per creature: meetings and self-meetings
     * @throws Exception on failure
     */
    static Game play(Kit kit, Colour[] colours, int n) throws Exception {
        int c = colours.length;
        int[] meetings = new int[c];
        int[] selfMeetings = new int[c];
        AtomicInteger reported = new AtomicInteger();
        CompletableFuture<Game> done = new CompletableFuture<>();
        Ref mall = kit.spawn(new Handler() {
            int left = n;
            int faded;
            Meet waiting;

            @Override
            public void onMessage(Object m, Ctx ctx) {
                Meet meet = (Meet) m;
                if (left == 0) {
                    meet.creature().tell(FADE);
                    if (++faded == c) {
                        ctx.stop();
                    }
                } else if (waiting == null) {
                    waiting = meet;
                } else {
                    left--;
                    waiting.creature().tell(new Mate(meet.colour(), meet.id()));
                    meet.creature().tell(new Mate(waiting.colour(), waiting.id()));
                    waiting = null;
                }
            }
        });
        Ref[] creatures = new Ref[c];
        for (int i = 0; i < c; i++) {
            int id = i;
            creatures[i] = kit.spawn(new Handler() {
                Colour colour = colours[id];
                int met;
                int self;

                @Override
                public void onMessage(Object m, Ctx ctx) {
                    if (m instanceof Mate mate) {
                        colour = colour.complement(mate.colour());
                        met++;
                        if (mate.id() == id) {
                            self++;
                        }
                        mall.tell(new Meet(ctx.self(), colour, id));
                    } else if (m == START) {
                        mall.tell(new Meet(ctx.self(), colour, id));
                    } else if (m == FADE) {
                        meetings[id] = met;
                        selfMeetings[id] = self;
                        ctx.stop();
                        if (reported.incrementAndGet() == c) {
                            done.complete(new Game(colours, meetings, selfMeetings));
                        }
                    }
                }
            });
        }
        for (Ref r : creatures) {
            r.tell(START);
        }
        return await(done);
    }

    /**
     * The number spelled digit by digit, each digit after a space ({@code 1200 -> " one two zero zero"}).
     *
     * @param n a non-negative number
     * @return the spelling
     */
    public static String spell(long n) {
        StringBuilder b = new StringBuilder();
        for (char ch : Long.toString(n).toCharArray()) {
            b.append(' ').append(DIGITS[ch - '0']);
        }
        return b.toString();
    }

    /**
     * Runs chameneos-redux and returns its output in the Benchmarks Game format.
     *
     * @param kit the implementation
     * @param n meetings per game
     * @return the program's output
     * @throws Exception on failure
     */
    public static String reduxOutput(Kit kit, int n) throws Exception {
        StringBuilder out = new StringBuilder();
        for (Colour a : Colour.values()) {
            for (Colour b : Colour.values()) {
                out.append(a).append(" + ").append(b).append(" -> ").append(a.complement(b)).append('\n');
            }
        }
        for (Colour[] start : new Colour[][] {REDUX_FIRST, REDUX_SECOND}) {
            Game g = play(kit, start, n);
            out.append('\n');
            for (Colour col : start) {
                out.append(' ').append(col);
            }
            out.append('\n');
            for (int i = 0; i < start.length; i++) {
                out.append(g.meetings()[i]).append(spell(g.selfMeetings()[i])).append('\n');
            }
            out.append(spell(g.total())).append('\n');
        }
        return out.toString();
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = meetings(s);
        if (redux) {
            String out = reduxOutput(kit, n);
            String total = spell(2L * n);
            long totals = out.lines().filter(total::equals).count();
            check("games whose spelled total is" + total, 2, totals);
            long selfMet = out.lines().filter(l -> l.matches("\\d+ .*") && !l.matches("\\d+ zero")).count();
            check("creatures that met themselves", 0, selfMet);
            return;
        }
        Colour[] colours = new Colour[100];
        for (int i = 0; i < colours.length; i++) {
            colours[i] = Colour.values()[i % 3];
        }
        Game g = play(kit, colours, n);
        check("meetings counted by creatures", 2L * n, g.total());
        long self = 0;
        for (int v : g.selfMeetings()) {
            self += v;
        }
        check("self-meetings", 0, self);
    }
}
