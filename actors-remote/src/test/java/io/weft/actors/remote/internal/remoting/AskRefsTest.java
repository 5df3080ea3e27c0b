package io.weft.actors.remote.internal.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.remote.remoting.Engine;
import io.weft.actors.runtime.testing.Resources;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The state each side keeps per ask across the wire does not grow with the number of asks. */
class AskRefsTest {

    private static final int IN_FLIGHT = 64;

    @RegisterExtension
    final Resources open = new Resources();

    private RemotingCore node(Engine engine, ActorSystem system) throws Exception {
        return (RemotingCore) open.keep(Remoting.attach(system, CodecRegistry.builder(MethodHandles.lookup()).build(),
                engine.apply(RemoteSettings.defaults())));
    }

    /** Sends {@code rounds} rounds of {@link #IN_FLIGHT} asks at once, each round awaited. */
    private static void ask(ActorSystem a, ActorRef<Object> remote, int rounds) throws Exception {
        for (int r = 0; r < rounds; r++) {
            List<CompletableFuture<Object>> replies = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                replies.add(a.ask(remote, "q" + r + "-" + i, Duration.ofSeconds(30)));
            }
            for (int i = 0; i < IN_FLIGHT; i++) {
                assertEquals("echo:q" + r + "-" + i, replies.get(i).get(60, TimeUnit.SECONDS));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void asksLeaveNoEntryPerAskOnEitherSide(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        RemotingCore ra = node(engine, a);
        RemotingCore rb = node(engine, b);
        ActorRef<Object> echo = b.spawn("echo", self -> self.become(Receive.handler()
                .match(String.class, t -> self.reply("echo:" + t)).build()));
        ActorRef<Object> remote = a.resolve(rb.addressOf(echo));

        ask(a, remote, 1);
        Association alphaOnBeta = rb.associations().get("127.0.0.1:" + ra.address().getPort());
        Association betaOnAlpha = ra.associations().get("127.0.0.1:" + rb.address().getPort());
        assertNotNull(alphaOnBeta, "beta's association with alpha: " + rb.associations().keySet());
        assertNotNull(betaOnAlpha, "alpha's association with beta: " + ra.associations().keySet());

        int asks = 20 * IN_FLIGHT;
        ask(a, remote, 20);
        // the replier keeps no ref per asker's temporary address, kept or cached
        assertTrue(alphaOnBeta.keptRefs() <= 1, "refs beta keeps to alpha's actors after " + asks + " asks: " + alphaOnBeta.keptRefs());
        assertTrue(alphaOnBeta.cachedAddresses() <= 2, "addresses from alpha beta remembers: " + alphaOnBeta.cachedAddresses());
        // the asker remembers the recipient, not each reply's temporary recipient
        assertTrue(betaOnAlpha.keptRefs() <= 1, "refs alpha keeps to beta's actors: " + betaOnAlpha.keptRefs());
        assertTrue(betaOnAlpha.cachedAddresses() <= 2, "addresses from beta alpha remembers: " + betaOnAlpha.cachedAddresses());
        // each reply un-exports its ask's ref once delivered; at most the last round's may be on their way out
        assertTrue(ra.exportedRefs() <= IN_FLIGHT, "exported ask refs after " + asks + " answered asks: " + ra.exportedRefs());
    }
}
