package com.example.pair;

import com.example.pair.Protocol.Greet;
import com.example.pair.Protocol.Greeting;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.time.Duration;

/** The second process: resolves the greeter's address and asks it for a greeting. */
public final class Caller {

    private Caller() {
    }

    /**
     * Greets once and prints the answer.
     *
     * @param args the greeter's address, as it printed it
     * @throws Exception if no answer comes within 30 s
     */
    public static void main(String[] args) throws Exception {
        try (ActorSystem system = ActorSystem.create("caller");
                Remoting remoting = Remoting.attach(system, Protocol.codec(), RemoteSettings.defaults())) {
            ActorRef<Object> greeter = system.resolve(args[0]);
            Object answer = system.askWith(greeter, replyTo -> new Greet("caller", replyTo), Duration.ofSeconds(30))
                    .get();
            System.out.println(((Greeting) answer).text() + " (through " + remoting.address() + ")");
        }
    }
}
