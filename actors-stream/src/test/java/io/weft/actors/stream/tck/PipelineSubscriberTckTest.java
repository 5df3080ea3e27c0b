package io.weft.actors.stream.tck;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.FlowStreams;
import java.util.concurrent.Flow;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowSubscriberBlackboxVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/** Reactive Streams TCK (blackbox): a sink stage as a {@link Flow.Subscriber}. */
public class PipelineSubscriberTckTest extends FlowSubscriberBlackboxVerification<Integer> {

    private ActorSystem system;

    /** The TCK's environment with the shared timeouts. */
    public PipelineSubscriberTckTest() {
        super(new TestEnvironment(TckSupport.TIMEOUT_MILLIS, TckSupport.NO_SIGNAL_MILLIS));
    }

    /** Starts the system. */
    @BeforeClass
    public void up() {
        system = TckSupport.newSystem("tck-subscriber");
    }

    /** Closes the system. */
    @AfterClass
    public void down() {
        system.close();
    }

    @Override
    public Flow.Subscriber<Integer> createFlowSubscriber() {
        return FlowStreams.subscriber(system, new TckSupport.Sink<Integer>(), 16);
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
