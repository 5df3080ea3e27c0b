package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.runtime.testing.Ports;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cluster-wide registry on members in one JVM: replication, a late joiner, stop, leave, bad inputs. */
class ClusterRegistryTest {

    private final InJvmMembers members = new InJvmMembers();

    @AfterEach
    void closeAll() throws Exception {
        members.close();
    }

    /** Polls until an event matches, for at most 30 s; events before it are consumed. */
    private static <E> E await(BlockingQueue<E> events, Predicate<E> wanted, String what) throws InterruptedException {
        E e = Conditions.next(events, Conditions.LONG, wanted);
        if (e == null) {
            throw new AssertionError("not seen within 30 s: " + what);
        }
        return e;
    }

    private static Predicate<RegistryEvent> event(RegistryEvent.Kind kind, String name, String address) {
        return e -> e.kind() == kind && e.name().equals(name) && e.address().equals(address);
    }

    /** An actor that counts the strings told to it and answers an ask with "echo:text:count". */
    private static ActorRef<Object> echo(ActorSystem system, String name) {
        int[] notes = {0};
        return system.spawn(name, self -> self.become(Receive.handler()
                .match(String.class, t -> {
                    if (t.startsWith("note")) {
                        notes[0]++;
                    } else {
                        self.reply("echo:" + t + ":" + notes[0]);
                    }
                }).build()));
    }

    private record Node(ActorSystem system, Remoting remoting, Cluster cluster, BlockingQueue<RegistryEvent> events) {
    }

    /** A member whose registry events go to {@link Node#events()}. */
    private Node node(String name, int port, List<Integer> seeds) throws Exception {
        InJvmMembers.Node n = members.start(name, port, seeds);
        BlockingQueue<RegistryEvent> q = new LinkedBlockingQueue<>();
        members.keep(n.cluster().registry().subscribe(q::add));
        return new Node(n.system(), n.remoting(), n.cluster(), q);
    }

    private static String ask(ActorSystem from, ActorRef<Object> to, String text) {
        return from.<Object, String>ask(to, text, Duration.ofSeconds(10)).join();
    }

    @Test
    void entriesReplicateReachLateJoinersAndGoWhenTheActorStopsOrItsMemberLeaves() throws Exception {
        List<Integer> seeds = InJvmMembers.freePorts(3);
        Node a = node("a", seeds.get(0), seeds);
        Node b = node("b", seeds.get(1), seeds);
        InJvmMembers.awaitMembers(a.cluster(), 2);
        InJvmMembers.awaitMembers(b.cluster(), 2);

        ActorRef<Object> echoA = echo(a.system(), "echo-a");
        String echoAddress = a.remoting().addressOf(echoA);
        a.cluster().registry().register("echo", echoA);
        assertSame(echoA, a.cluster().registry().lookupOne("echo").orElseThrow(), "the owner looks up its local ref");
        await(b.events(), event(RegistryEvent.Kind.ADDED, "echo", echoAddress), "b sees a's echo");

        // c joins after the registration and gets the existing entries
        Node c = node("c", seeds.get(2), seeds);
        InJvmMembers.awaitMembers(c.cluster(), 3);
        RegistryEvent seen = await(c.events(), event(RegistryEvent.Kind.ADDED, "echo", echoAddress), "the late joiner c sees a's echo");
        assertEquals(a.cluster().self(), seen.owner());

        ActorRef<Object> fromB = b.cluster().registry().lookupOne("echo").orElseThrow();
        assertEquals(echoAddress, fromB.address(), "b resolves a remote ref to a's actor");
        fromB.tell("note");
        assertEquals("echo:hi:1", ask(b.system(), fromB, "hi"), "a tell then an ask from b reach a's actor, in order");
        ActorRef<Object> fromC = c.cluster().registry().lookup("echo").get(0);
        assertEquals(echoAddress, fromC.address());
        fromC.tell("note");
        assertEquals("echo:hi:2", ask(c.system(), fromC, "hi"), "a tell then an ask from c reach the same actor");

        // a name maps to a set: b registers its own echo under the same name
        ActorRef<Object> echoB = echo(b.system(), "echo-b");
        String echoBAddress = b.remoting().addressOf(echoB);
        b.cluster().registry().register("echo", echoB);
        await(c.events(), event(RegistryEvent.Kind.ADDED, "echo", echoBAddress), "c sees b's echo");
        Set<String> both = new HashSet<>();
        for (ActorRef<Object> r : c.cluster().registry().lookup("echo")) {
            both.add(r.address());
        }
        assertEquals(Set.of(echoAddress, echoBAddress), both, "lookup returns every actor under the name");
        assertSame(echoB, b.cluster().registry().lookupOne("echo").orElseThrow(), "lookupOne prefers a local actor");

        // the actor stops: unregistered everywhere
        a.system().stop(echoA);
        await(b.events(), event(RegistryEvent.Kind.REMOVED, "echo", echoAddress), "b sees a's echo go");
        await(c.events(), event(RegistryEvent.Kind.REMOVED, "echo", echoAddress), "c sees a's echo go");
        assertEquals(1, c.cluster().registry().lookup("echo").size());
        assertEquals(echoBAddress, c.cluster().registry().lookup("echo").get(0).address());
        assertEquals(List.of(echoB), b.cluster().registry().lookup("echo"));

        // a leaves: its entries go on b and c, and a watcher of a looked-up ref is told
        ActorRef<Object> svc = echo(a.system(), "svc");
        String svcAddress = a.remoting().addressOf(svc);
        a.cluster().registry().register("svc", svc);
        await(b.events(), event(RegistryEvent.Kind.ADDED, "svc", svcAddress), "b sees a's svc");
        await(c.events(), event(RegistryEvent.Kind.ADDED, "svc", svcAddress), "c sees a's svc");
        BlockingQueue<Object> terminated = new LinkedBlockingQueue<>();
        ActorRef<Object> watcher = b.system().spawn("watcher", self -> self.become(Receive.handler()
                .match(ActorRef.class, r -> {
                    self.watch(r);
                    terminated.add("watching");
                })
                .match(Terminated.class, terminated::add).build()));
        watcher.tell(b.cluster().registry().lookupOne("svc").orElseThrow());
        assertEquals("watching", terminated.poll(30, TimeUnit.SECONDS));
        a.cluster().leave();
        RegistryEvent gone = await(b.events(), event(RegistryEvent.Kind.REMOVED, "svc", svcAddress), "b drops the entry of the leaver");
        assertTrue(gone.reason().contains("left the view"), gone.reason());
        await(c.events(), event(RegistryEvent.Kind.REMOVED, "svc", svcAddress), "c drops the entry of the leaver");
        assertEquals(List.of(), b.cluster().registry().lookup("svc"));
        assertEquals(List.of(), c.cluster().registry().lookup("svc"));
        Object t = terminated.poll(30, TimeUnit.SECONDS);
        assertTrue(t instanceof Terminated, "the watcher of a's svc on b is told: " + t);
        assertEquals(svcAddress, ((Terminated) t).actor().address());
        assertThrows(IllegalStateException.class, () -> a.cluster().registry().register("svc", svc), "a left: it cannot register");
    }

    @Test
    void aSubscriberToldOfAnEntryRemovedByALeaveNoLongerFindsIt() throws Exception {
        List<Integer> seeds = InJvmMembers.freePorts(2);
        Node a = node("a", seeds.get(0), seeds);
        Node b = node("b", seeds.get(1), seeds);
        InJvmMembers.awaitMembers(a.cluster(), 2);
        InJvmMembers.awaitMembers(b.cluster(), 2);
        ActorRef<Object> svc = echo(a.system(), "svc");
        String svcAddress = a.remoting().addressOf(svc);
        a.cluster().registry().register("svc", svc);
        await(b.events(), event(RegistryEvent.Kind.ADDED, "svc", svcAddress), "b sees a's svc");
        BlockingQueue<Integer> seenOnRemoval = new LinkedBlockingQueue<>();
        members.keep(b.cluster().registry().subscribe(e -> {
            if (e.kind() == RegistryEvent.Kind.REMOVED && e.name().equals("svc")) {
                seenOnRemoval.add(b.cluster().registry().lookup("svc").size());
            }
        }));
        a.cluster().leave();
        assertEquals(0, seenOnRemoval.poll(30, TimeUnit.SECONDS), "a lookup from the REMOVED event's subscriber finds no entry");
    }

    @Test
    void badInputsAreRefusedWithClearErrors() throws Exception {
        int port = Ports.free();
        Node a = node("a", port, List.of(port));
        ClusterRegistry reg = a.cluster().registry();
        ActorRef<Object> echo = echo(a.system(), "echo");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reg.register(null, echo));
        assertTrue(e.getMessage().contains("null or blank"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> reg.register("  ", echo));
        assertThrows(IllegalArgumentException.class, () -> reg.register("a\nb", echo));
        assertThrows(IllegalArgumentException.class, () -> reg.lookup(""));
        assertThrows(IllegalArgumentException.class, () -> reg.register("echo", null));
        ActorRef<Object> foreign = a.system().resolve("weft://other@127.0.0.1:1/svc#7");
        e = assertThrows(IllegalArgumentException.class, () -> reg.register("svc", foreign));
        assertTrue(e.getMessage().contains("register it on the member that owns it"), e.getMessage());
        assertFalse(reg.unregister("echo", echo), "nothing to unregister");
        reg.register("echo", echo);
        reg.register("echo", echo);
        assertEquals(List.of(echo), reg.lookup("echo"), "registering twice keeps one entry");
        assertTrue(reg.unregister("echo", echo));
        assertEquals(List.of(), reg.lookup("echo"));
        ActorRef<Object> stopped = echo(a.system(), "stopped");
        a.system().stop(stopped);
        Conditions.await(Conditions.LONG, stopped::isTerminated, "the stopped actor is terminated");
        e = assertThrows(IllegalArgumentException.class, () -> reg.register("late", stopped));
        assertTrue(e.getMessage().contains("has stopped"), e.getMessage());
        assertNotNull(reg.subscribe(x -> { }));
    }
}
