package io.weft.actors.loom;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.zip.CRC32;

/**
 * The pipes example of Haller and Odersky 2009, §4.2, written three ways with the same output. Two end points
 * A and B share two pipes (A to B, B to A). First A writes {@link #DATA} bytes while B reads them;
 * then they synchronize, exchange roles and repeat. Each end point reports what it wrote or read,
 * with a CRC-32 of the bytes, so equal output also means the bytes arrived intact.
 *
 * <ol>
 *   <li>{@link #threadActors}: two thread-based actors, blocking NIO on their virtual threads,
 *       synchronizing with messages (the control flow of Haller and Odersky 2009, Fig. 8, written as plain sequential code);</li>
 *   <li>{@link #reactActors}: two react actors; non-blocking NIO with one selector thread whose
 *       one-shot handlers do the I/O and send {@code Written}/{@code Read} messages (Haller and Odersky 2009, Fig. 8);</li>
 *   <li>{@link #plainThreads}: two platform threads, blocking NIO, a barrier to exchange roles
 *       (Haller and Odersky 2009, Fig. 6).</li>
 * </ol>
 */
final class PipesExample {

    /** Bytes sent in each direction. */
    static final int DATA = 32 * 1024;
    private static final int BUF = 4 * 1024;

    private PipesExample() {
    }

    /** The two pipes of a pair. */
    record Pipes(Pipe aToB, Pipe bToA) {
        static Pipes open() {
            try {
                return new Pipes(Pipe.open(), Pipe.open());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Pipe.SinkChannel sink(boolean a) {
            return a ? aToB.sink() : bToA.sink();
        }

        Pipe.SourceChannel source(boolean a) {
            return a ? bToA.source() : aToB.source();
        }

        void close() throws IOException {
            aToB.sink().close();
            aToB.source().close();
            bToA.sink().close();
            bToA.source().close();
        }
    }

    /** The bytes an end point sends: a pattern seeded by its name. */
    static void fill(ByteBuffer buf, String who, int offset) {
        buf.clear();
        int n = Math.min(buf.capacity(), DATA - offset);
        for (int i = 0; i < n; i++) {
            buf.put((byte) ((offset + i) * 31 + who.charAt(0)));
        }
        buf.flip();
    }

    static String wrote(String who, CRC32 crc) {
        return who + " wrote " + DATA + " bytes crc32=" + Long.toHexString(crc.getValue());
    }

    static String read(String who, CRC32 crc) {
        return who + " read " + DATA + " bytes crc32=" + Long.toHexString(crc.getValue());
    }

    /** The report of one pair: A's lines, then B's, each in the order that end point did them. */
    static List<String> transcript(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    // ------------------------------------------------------------------ blocking I/O (shared by 1 and 3)

    static String blockingWrite(String who, Pipe.SinkChannel sink) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(BUF);
        CRC32 crc = new CRC32();
        int written = 0;
        while (written < DATA) {
            fill(buf, who, written);
            crc.update(buf.duplicate());
            while (buf.hasRemaining()) {
                written += sink.write(buf);
            }
        }
        return wrote(who, crc);
    }

    static String blockingRead(String who, Pipe.SourceChannel source) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(BUF);
        CRC32 crc = new CRC32();
        int read = 0;
        while (read < DATA) {
            buf.clear().limit(Math.min(BUF, DATA - read));
            int n = source.read(buf);
            if (n < 0) {
                throw new IOException(who + ": pipe closed after " + read + " bytes");
            }
            read += n;
            crc.update(buf.flip());
        }
        return read(who, crc);
    }

    // ------------------------------------------------------------------ 1. thread-based actors

    private enum Exchange { EXCHANGE }

    /**
     * Version 1: each end point is a thread-based actor whose body reads like the threaded program,
     * with a message exchange instead of a barrier.
     */
    static List<String> threadActors(ActorSystem system, Pipes pipes) throws Exception {
        CompletableFuture<List<String>> a = new CompletableFuture<>();
        CompletableFuture<List<String>> b = new CompletableFuture<>();
        CompletableFuture<ActorRef<Object>> refA = new CompletableFuture<>();
        CompletableFuture<ActorRef<Object>> refB = new CompletableFuture<>();
        refA.complete(system.spawnThread("pipe-A", self -> endPoint(self, "A", true, pipes, refB, a)));
        refB.complete(system.spawnThread("pipe-B", self -> endPoint(self, "B", false, pipes, refA, b)));
        return transcript(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
    }

    private static void endPoint(ActorContext<Object> self, String who, boolean write, Pipes pipes,
            CompletableFuture<ActorRef<Object>> other, CompletableFuture<List<String>> out) {
        try {
            List<String> lines = new ArrayList<>();
            lines.add(write ? blockingWrite(who, pipes.sink(write)) : blockingRead(who, pipes.source(write)));
            other.join().tell(Exchange.EXCHANGE);
            self.receive(Receive.<Object>handler().match(Exchange.class, e -> { }).build());
            lines.add(!write ? blockingWrite(who, pipes.sink(write)) : blockingRead(who, pipes.source(write)));
            out.complete(lines);
        } catch (IOException | RuntimeException e) {
            out.completeExceptionally(e);
        }
    }

    // ------------------------------------------------------------------ 2. react actors + selector thread

    /** A selector thread; one-shot handlers, registered from any thread, run on it (the disp of Haller and Odersky 2009, §4.2). */
    static final class Dispatcher implements AutoCloseable {
        private final Selector selector;
        private final ConcurrentLinkedQueue<Object[]> registrations = new ConcurrentLinkedQueue<>();
        private final Thread thread;

        Dispatcher() throws IOException {
            selector = Selector.open();
            thread = Thread.ofPlatform().name("pipes-selector").daemon(true).start(this::loop);
        }

        /** Runs {@code handler} once on the selector thread when {@code channel} is ready for {@code op}. */
        void register(SelectableChannel channel, int op, Runnable handler) {
            registrations.add(new Object[] {channel, op, handler});
            selector.wakeup();
        }

        private void loop() {
            try {
                while (selector.isOpen()) {
                    selector.select();
                    Object[] r;
                    while ((r = registrations.poll()) != null) {
                        SelectableChannel ch = (SelectableChannel) r[0];
                        SelectionKey key = ch.keyFor(selector);
                        if (key == null) {
                            ch.register(selector, (Integer) r[1], r[2]);
                        } else {
                            key.attach(r[2]);
                            key.interestOps((Integer) r[1]);
                        }
                    }
                    for (SelectionKey key : selector.selectedKeys()) {
                        key.interestOps(0); // one-shot: registered until invoked
                        ((Runnable) key.attachment()).run();
                    }
                    selector.selectedKeys().clear();
                }
            } catch (ClosedSelectorException | IOException e) {
                // closed: the example is over
            }
        }

        @Override
        public void close() throws IOException {
            selector.close();
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private record Written(int bytes) {
    }

    private record Read(int bytes) {
    }

    /** Version 2: react actors; the I/O runs in handlers on the selector thread, which send messages. */
    static List<String> reactActors(ActorSystem system, Pipes pipes) throws Exception {
        for (Pipe p : List.of(pipes.aToB(), pipes.bToA())) {
            p.sink().configureBlocking(false);
            p.source().configureBlocking(false);
        }
        try (Dispatcher disp = new Dispatcher()) {
            CompletableFuture<List<String>> a = new CompletableFuture<>();
            CompletableFuture<List<String>> b = new CompletableFuture<>();
            CompletableFuture<ActorRef<Object>> refA = new CompletableFuture<>();
            CompletableFuture<ActorRef<Object>> refB = new CompletableFuture<>();
            refA.complete(system.spawn("proc-A", (ActorContext<Object> self) -> new Proc(self, "A", true, pipes, disp, refB, a).act()));
            refB.complete(system.spawn("proc-B", (ActorContext<Object> self) -> new Proc(self, "B", false, pipes, disp, refA, b).act()));
            return transcript(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
        } finally {
            for (Pipe p : List.of(pipes.aToB(), pipes.bToA())) {
                p.sink().configureBlocking(true);
                p.source().configureBlocking(true);
            }
        }
    }

    /** Seed Fig. 8: an end point as a react actor, control flow with andThen and loopWhile. */
    private static final class Proc {
        final ActorContext<Object> self;
        final String who;
        final boolean write;
        final Pipes pipes;
        final Dispatcher disp;
        final CompletableFuture<ActorRef<Object>> other;
        final CompletableFuture<List<String>> out;
        final List<String> lines = new ArrayList<>();
        final ByteBuffer buf = ByteBuffer.allocate(BUF);

        Proc(ActorContext<Object> self, String who, boolean write, Pipes pipes, Dispatcher disp,
                CompletableFuture<ActorRef<Object>> other, CompletableFuture<List<String>> out) {
            this.self = self;
            this.who = who;
            this.write = write;
            this.pipes = pipes;
            this.disp = disp;
            this.other = other;
            this.out = out;
        }

        void act() {
            self.andThen(() -> {
                if (write) {
                    writeData();
                } else {
                    readData();
                }
            }, () -> {
                other.join().tell(Exchange.EXCHANGE);
                self.react(Receive.<Object>handler().match(Exchange.class, e -> self.andThen(() -> {
                    if (write) {
                        readData();
                    } else {
                        writeData();
                    }
                }, () -> out.complete(lines))).build());
            });
        }

        void writeData() {
            Pipe.SinkChannel sink = pipes.sink(write);
            CRC32 crc = new CRC32();
            fill(buf, who, 0);
            crc.update(buf.duplicate());
            Runnable writeHnd = new Runnable() {
                @Override
                public void run() {
                    try {
                        self.self().tell(new Written(sink.write(buf)));
                    } catch (IOException e) {
                        out.completeExceptionally(e);
                    }
                }
            };
            disp.register(sink, SelectionKey.OP_WRITE, writeHnd);
            int[] bytesWritten = {0};
            self.loopWhile(() -> bytesWritten[0] < DATA, () -> self.react(Receive.<Object>handler().match(Written.class, w -> {
                bytesWritten[0] += w.bytes();
                if (bytesWritten[0] == DATA) {
                    lines.add(wrote(who, crc));
                } else {
                    if (!buf.hasRemaining()) {
                        fill(buf, who, bytesWritten[0]);
                        crc.update(buf.duplicate());
                    }
                    disp.register(sink, SelectionKey.OP_WRITE, writeHnd);
                }
            }).build()));
        }

        void readData() {
            Pipe.SourceChannel source = pipes.source(write);
            CRC32 crc = new CRC32();
            int[] bytesRead = {0};
            Runnable readHnd = new Runnable() {
                @Override
                public void run() {
                    try {
                        buf.clear().limit(Math.min(BUF, DATA - bytesRead[0]));
                        int n = source.read(buf);
                        buf.flip();
                        self.self().tell(new Read(n));
                    } catch (IOException e) {
                        out.completeExceptionally(e);
                    }
                }
            };
            disp.register(source, SelectionKey.OP_READ, readHnd);
            self.loopWhile(() -> bytesRead[0] < DATA, () -> self.react(Receive.<Object>handler().match(Read.class, r -> {
                crc.update(buf);
                bytesRead[0] += r.bytes();
                if (bytesRead[0] == DATA) {
                    lines.add(read(who, crc));
                } else {
                    disp.register(source, SelectionKey.OP_READ, readHnd);
                }
            }).build()));
        }
    }

    // ------------------------------------------------------------------ 3. plain threads

    /** Version 3: two platform threads with blocking NIO and a barrier to exchange roles (Haller and Odersky 2009, Fig. 6). */
    static List<String> plainThreads(Pipes pipes) throws Exception {
        CyclicBarrier exch = new CyclicBarrier(2);
        CompletableFuture<List<String>> a = new CompletableFuture<>();
        CompletableFuture<List<String>> b = new CompletableFuture<>();
        Thread ta = Thread.ofPlatform().name("proc-A").start(() -> proc("A", true, pipes, exch, a));
        Thread tb = Thread.ofPlatform().name("proc-B").start(() -> proc("B", false, pipes, exch, b));
        List<String> result = transcript(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
        ta.join();
        tb.join();
        return result;
    }

    private static void proc(String who, boolean write, Pipes pipes, CyclicBarrier exch, CompletableFuture<List<String>> out) {
        try {
            List<String> lines = new ArrayList<>();
            lines.add(write ? blockingWrite(who, pipes.sink(write)) : blockingRead(who, pipes.source(write)));
            exch.await();
            lines.add(!write ? blockingWrite(who, pipes.sink(write)) : blockingRead(who, pipes.source(write)));
            out.complete(lines);
        } catch (IOException | InterruptedException | BrokenBarrierException | RuntimeException e) {
            out.completeExceptionally(e);
        }
    }
}
