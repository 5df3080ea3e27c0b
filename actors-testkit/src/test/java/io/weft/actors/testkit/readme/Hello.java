package io.weft.actors.testkit.readme;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;

public class Hello {
    public static void main(String[] args) {
        try (ActorSystem system = ActorSystem.create("hello")) {
            ActorRef<String> greeter = system.spawn("greeter", self ->
                    self.loop(() -> self.react(Receive.<String>handler()
                            .match(String.class, name -> self.reply("hello, " + name))
                            .build())));
            String answer = system.<String, String>ask(greeter, "world", Duration.ofSeconds(5)).join();
            System.out.println(answer); // hello, world
        }
    }
}
