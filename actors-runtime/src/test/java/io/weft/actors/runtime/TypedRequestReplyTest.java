package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Typed request-reply (askWith), signals on typed handlers, replying later without a cast, pipeTo. */
class TypedRequestReplyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** The protocol of a typed key-value actor: each request carries its typed reply ref. */
    sealed interface KvCmd permits Put, Get {
    }

    record Put(String key, String value) implements KvCmd {
    }

    record Get(String key, ActorRef<Optional<String>> replyTo) implements KvCmd {
    }

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("typed").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    private ActorRef<KvCmd> kv() {
        return system.spawn((ActorContext<KvCmd> self) -> {
            Map<String, String> store = new HashMap<>();
            self.become(Receive.<KvCmd>handler()
                    .match(Put.class, p -> store.put(p.key(), p.value()))
                    .match(Get.class, g -> g.replyTo().tell(Optional.ofNullable(store.get(g.key()))))
                    .build());
        });
    }

    @Test
    void askWithInfersTheReplyTypeFromTheReplyRef() throws Exception {
        ActorRef<KvCmd> kv = kv();
        kv.tell(new Put("a", "1"));
        CompletableFuture<Optional<String>> a = system.askWith(kv, replyTo -> new Get("a", replyTo), TIMEOUT);
        assertEquals(Optional.of("1"), a.get(60, TimeUnit.SECONDS));
        // in a chain, the lambda's parameter type gives R
        String b = system.askWith(kv, (ActorRef<Optional<String>> r) -> new Get("b", r), TIMEOUT)
                .thenApply(o -> o.orElse("none")).get(60, TimeUnit.SECONDS);
        assertEquals("none", b);
    }

    @Test
    void aMismatchedReplyTypeDoesNotCompile() {
        String header = """
                import io.weft.actors.*;
                import java.time.Duration;
                import java.util.Optional;
                import java.util.concurrent.CompletableFuture;
                class Client {
                    record Get(String key, ActorRef<Optional<String>> replyTo) {}
                    void use(ActorSystem system, ActorRef<Get> kv) {
                """;
        String good = header + """
                        CompletableFuture<Optional<String>> ok = system.askWith(kv, replyTo -> new Get("a", replyTo), Duration.ofSeconds(1));
                    }
                }
                """;
        String bad = header + """
                        CompletableFuture<Integer> wrong = system.askWith(kv, replyTo -> new Get("a", replyTo), Duration.ofSeconds(1));
                    }
                }
                """;
        assertEquals(List.of(), compile(good), "the matching reply type must compile");
        List<String> errors = compile(bad);
        assertFalse(errors.isEmpty(), "a reply type that does not match the request's reply ref must not compile");
        assertTrue(String.join("\n", errors).contains("Integer") && String.join("\n", errors).contains("Optional"), errors.toString());
    }

    /**
     * Compiles one source file against the API with the JDK's javac (through
     * {@link java.util.spi.ToolProvider}, which java.base can find from a named module); returns
     * javac's error output, empty if it compiled.
     */
    private static List<String> compile(String source) {
        try {
            Path dir = Files.createTempDirectory("compile-check");
            Path file = dir.resolve("Client.java");
            Files.writeString(file, source);
            java.util.spi.ToolProvider javac = java.util.spi.ToolProvider.findFirst("javac")
                    .orElseThrow(() -> new AssertionError("this JDK has no javac tool"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = javac.run(new PrintWriter(out), new PrintWriter(err), "-classpath", codeSource(ActorSystem.class),
                    "-d", dir.resolve("classes").toString(), "-proc:none", file.toString());
            String output = out + err.toString();
            assertEquals(rc == 0, !output.contains("error:"), output);
            return rc == 0 ? List.of() : output.lines().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String codeSource(Class<?> type) {
        try {
            return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (java.net.URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    /** A typed actor's commands. */
    sealed interface WorkerCmd permits Watch {
    }

    record Watch(ActorRef<?> target) implements WorkerCmd {
    }

    @Test
    void aTypedActorReceivesTerminatedThroughASignalCase() throws Exception {
        CompletableFuture<Terminated> told = new CompletableFuture<>();
        ActorRef<WorkerCmd> watcher = system.spawn((ActorContext<WorkerCmd> self) -> self.become(Receive.<WorkerCmd>handler()
                .match(Watch.class, w -> self.watch(w.target()))
                .onSignal(Terminated.class, told::complete)
                .build()));
        ActorRef<String> target = system.spawn(self -> self.react(Receive.<String>handler().matchAny(m -> self.stop()).build()));
        watcher.tell(new Watch(target));
        target.tell("stop");
        Terminated t = told.get(60, TimeUnit.SECONDS);
        assertEquals(target, t.actor());
    }

    /** A request the actor answers later, after a release, through the typed ref it carries. */
    record Later(int n, ActorRef<Integer> replyTo) {
    }

    @Test
    void aRequestCarryingItsReplyRefIsAnsweredLaterWithoutACast() throws Exception {
        ActorRef<Object> batcher = system.spawn((ActorContext<Object> self) -> {
            List<Later> waiting = new ArrayList<>();
            self.become(Receive.handler()
                    .match(Later.class, waiting::add)
                    .match(String.class, s -> {
                        waiting.forEach(l -> l.replyTo().tell(l.n() * 10));
                        waiting.clear();
                    })
                    .build());
        });
        CompletableFuture<Integer> one = system.askWith(batcher, r -> new Later(1, r), TIMEOUT);
        CompletableFuture<Integer> two = system.askWith(batcher, r -> new Later(2, r), TIMEOUT);
        batcher.tell("release");
        assertEquals(10, one.get(60, TimeUnit.SECONDS));
        assertEquals(20, two.get(60, TimeUnit.SECONDS));
    }

    record Loaded(String value) {
    }

    record LoadFailed(Throwable cause) {
    }

    @Test
    void pipeToSendsTheMappedResultOrFailureFromTheCompletingThread() throws Exception {
        CompletableFuture<String> ok = new CompletableFuture<>();
        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletableFuture<Object> first = new CompletableFuture<>();
        CompletableFuture<Object> second = new CompletableFuture<>();
        system.spawn((ActorContext<Object> self) -> {
            self.pipeTo(ok, self.self(), (v, e) -> e == null ? new Loaded(v) : new LoadFailed(e));
            self.pipeTo(failing.thenApply(String::trim), self.self(), (v, e) -> e == null ? new Loaded(v) : new LoadFailed(e));
            self.become(Receive.handler().matchAny(m -> {
                if (!first.complete(m)) {
                    second.complete(m);
                }
            }).build());
        });
        Thread completer = new Thread(() -> ok.complete("row"));
        completer.start();
        assertEquals(new Loaded("row"), first.get(60, TimeUnit.SECONDS));
        IllegalStateException boom = new IllegalStateException("boom");
        failing.completeExceptionally(boom);
        LoadFailed failed = (LoadFailed) second.get(60, TimeUnit.SECONDS);
        assertSame(boom, failed.cause()); // unwrapped from the CompletionException of thenApply
        completer.join(60_000);
    }
}
