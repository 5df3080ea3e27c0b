package io.weft.actors.bench;

import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import io.weft.actors.bench.workload.Scale;
import io.weft.actors.bench.workload.Workload;
import java.util.concurrent.CompletableFuture;

/** A workload whose actor answers 41 where 42 is expected: every run fails its validation. */
public final class WrongAnswer extends Workload {

    /** Creates the workload, named {@code wrong}. */
    public WrongAnswer() {
        super("wrong");
    }

    @Override
    public String describe(Scale s) {
        return "answers 41";
    }

    @Override
    public int liveActors(Scale s) {
        return 1;
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        Ref r = kit.spawn((m, c) -> {
            answer.complete(41);
            c.stop();
        });
        r.tell(START);
        check("answer", 42, await(answer));
    }
}
