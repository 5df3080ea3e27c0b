package io.weft.actors.stream.tck;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.FlowStreams;
import io.weft.actors.stream.Pipeline;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.IdentityFlowProcessorVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/** Reactive Streams TCK: a two-stage identity pipeline as a {@link Flow.Processor}. */
public class PipelineProcessorTckTest extends IdentityFlowProcessorVerification<Integer> {

    private ActorSystem system;
    private ExecutorService executor;

    /** The TCK's environment with the shared timeouts. */
    public PipelineProcessorTckTest() {
        super(new TestEnvironment(TckSupport.TIMEOUT_MILLIS, TckSupport.NO_SIGNAL_MILLIS));
    }

    /** Starts the system. */
    @BeforeClass
    public void up() {
        system = TckSupport.newSystem("tck-processor");
        executor = Executors.newFixedThreadPool(2);
    }

    /** Closes the system. */
    @AfterClass
    public void down() {
        executor.shutdownNow();
        system.close();
    }

    @Override
    public Flow.Processor<Integer, Integer> createIdentityFlowProcessor(int bufferSize) {
        return FlowStreams.processor(system,
                Pipeline.of(new TckSupport.Identity<Integer>(), new TckSupport.Identity<Integer>()), Math.max(1, bufferSize));
    }

    @Override
    public Flow.Publisher<Integer> createFailedFlowPublisher() {
        Flow.Processor<Integer, Integer> p = createIdentityFlowProcessor(16);
        p.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
            }

            @Override
            public void cancel() {
            }
        });
        p.onError(new RuntimeException("failed on purpose"));
        return p;
    }

    @Override
    public ExecutorService publisherExecutorService() {
        return executor;
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }

    @Override
    public long maxSupportedSubscribers() {
        return 1;
    }
}
