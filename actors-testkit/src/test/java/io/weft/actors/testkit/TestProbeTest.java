package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(WeftExtension.class)
class TestProbeTest {

    record Greet(String name, ActorRef<String> replyTo) {
    }

    @Test
    void probeIsAReplyDestination(ActorSystem system, TestProbe<String> probe) {
        ActorRef<Greet> greeter = system.spawn("greeter", self -> self.loop(() -> self.react(Receive.<Greet>handler()
                .match(Greet.class, g -> g.replyTo().tell("hello, " + g.name()))
                .build())));
        greeter.tell(new Greet("ada", probe.ref()));
        probe.expectMessage("hello, ada");
    }

    @Test
    void lastSenderAndReply(ActorSystem system, TestProbe<Object> probe) throws Exception {
        ActorRef<String> asker = system.spawn("asker", self -> {
            probe.ref().tell("ping", self.self());
            self.react(Receive.<String>handler().match(String.class, s -> probe.ref().tell("got " + s)).build());
        });
        probe.expectMessage("ping");
        assertSame(asker, probe.lastSender());
        probe.reply("pong");
        probe.expectMessage("got pong");
        // ask through the probe: the probe answers like the actor it stands in for
        var answer = system.<Object, String>ask(probe.ref(), "question", Duration.ofSeconds(30));
        probe.expectMessage("question");
        probe.reply("answer");
        assertEquals("answer", answer.get(30, TimeUnit.SECONDS));
    }

    @Test
    void fishAndExpectNoMessage(ActorSystem system, TestProbe<Integer> probe) {
        for (int i = 0; i < 10; i++) {
            probe.ref().tell(i);
        }
        assertEquals(7, probe.fishForMessage(Duration.ofSeconds(30), n -> n == 7));
        assertEquals(8, probe.receiveMessage(Duration.ofSeconds(30)));
        assertEquals(Integer.valueOf(9), probe.expectMessageClass(Integer.class));
        probe.expectNoMessage(Duration.ofMillis(50));
        probe.ref().tell(11);
        // returns (failing) as soon as 11 arrives; the long window only matters if it never does
        assertThrows(AssertionError.class, () -> probe.expectNoMessage(Duration.ofSeconds(30)));
        assertThrows(AssertionError.class, () -> probe.expectMessage(Duration.ofMillis(50), 12));
    }

    @Test
    void systemIsOpenDuringTheTestAndOnePerTest(ActorSystem system, ActorSystem same) {
        assertSame(system, same);
        assertFalse(system.isClosed());
        assertEquals("systemIsOpenDuringTheTestAndOnePerTest", system.name());
    }

    @Test
    void probeOnDeterministicSchedulerNeverBlocks() throws Exception {
        DeterministicScheduler.replay(11, (scheduler, system) -> {
            TestProbe<String> probe = TestProbe.create(system, scheduler, "probe");
            ActorRef<String> echo = system.spawn(scheduler.props("echo"), self -> self.loop(() -> self.react(Receive.<String>handler()
                    .match(String.class, s -> probe.ref().tell(s + "!"))
                    .build())));
            echo.tell("a");
            probe.expectMessage("a!");
            probe.expectNoMessage(Duration.ofDays(1)); // manual time: returns once idle
        });
    }
}
