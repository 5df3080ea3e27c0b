package io.weft.actors.runtime.examples;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A user policy (docs/scheduling.md, Prokopec 2016, §4 {@code ResourceScheduler}): an actor runs only when
 * a user-supplied resource (a device, a licence, a rate limiter) grants it a slot.
 */
public final class ResourceScheduler implements Scheduler {

    /** Something that grants the use of a resource, asynchronously. */
    public interface Resource {
        /**
         * Asks for the resource; once it is granted, run {@code whenGranted} on some thread, then
         * release the resource. Must not run it on the calling thread.
         *
         * @param whenGranted the work to do while holding the resource
         */
        void request(Runnable whenGranted);
    }

    private final Resource resource;
    private final int budget;

    /**
     * @param resource the resource the actors need
     * @param budget messages handled per grant
     */
    public ResourceScheduler(Resource resource, int budget) {
        this.resource = resource;
        this.budget = budget;
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(SchedulerState.batches(budget));
    }

    @Override
    public void schedule(Frame frame) {
        resource.request(frame::execute); // exactly one execute per schedule, when granted
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public String name() {
        return "resource";
    }
}
