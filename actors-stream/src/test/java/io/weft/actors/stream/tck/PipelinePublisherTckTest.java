package io.weft.actors.stream.tck;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.FlowStreams;
import io.weft.actors.stream.Pipeline;
import java.util.concurrent.Flow;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/** Reactive Streams TCK: a two-stage pipeline over a lazy range as a {@link Flow.Publisher}. */
public class PipelinePublisherTckTest extends FlowPublisherVerification<Long> {

    private ActorSystem system;

    /** The TCK's environment with the shared timeouts. */
    public PipelinePublisherTckTest() {
        super(new TestEnvironment(TckSupport.TIMEOUT_MILLIS, TckSupport.NO_SIGNAL_MILLIS));
    }

    /** Starts the system. */
    @BeforeClass
    public void up() {
        system = TckSupport.newSystem("tck-publisher");
    }

    /** Closes the system. */
    @AfterClass
    public void down() {
        system.close();
    }

    @Override
    public Flow.Publisher<Long> createFlowPublisher(long elements) {
        return FlowStreams.publisher(system, TckSupport.range(elements),
                Pipeline.of(new TckSupport.Identity<Long>(), new TckSupport.Identity<Long>()), 16);
    }

    @Override
    public Flow.Publisher<Long> createFailedFlowPublisher() {
        Flow.Publisher<Long> failing = s -> {
            s.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            s.onError(new RuntimeException("upstream failed"));
        };
        Flow.Processor<Long, Long> p = FlowStreams.processor(system, new TckSupport.Identity<Long>(), 16);
        failing.subscribe(p);
        return p;
    }

    @Override
    public long maxElementsFromPublisher() {
        return Long.MAX_VALUE - 1;
    }
}
