package com.example.pair;

import com.example.pair.Protocol.Greet;
import com.example.pair.Protocol.Greeting;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;

/** The first process: a system "greeter" on 127.0.0.1:25520 with an actor named "greeter". */
public final class Greeter {

    private Greeter() {
    }

    /**
     * Runs until its standard input closes.
     *
     * @param args unused
     * @throws Exception if the port cannot be bound
     */
    public static void main(String[] args) throws Exception {
        try (ActorSystem system = ActorSystem.create("greeter");
                Remoting remoting = Remoting.attach(system, Protocol.codec(),
                        RemoteSettings.defaults().withAddress("127.0.0.1", Protocol.GREETER_PORT))) {
            ActorRef<Object> greeter = system.spawn("greeter", self -> self.become(Receive.handler()
                    .match(Greet.class, g -> g.replyTo().tell(new Greeting("hello, " + g.name())))
                    .build()));
            // the address other processes resolve: weft://greeter@127.0.0.1:25520/greeter#<id>
            System.out.println("READY " + remoting.addressOf(greeter));
            System.out.flush();
            while (System.in.read() >= 0) {
                // serve until the caller closes our input
            }
        }
    }
}
