package io.weft.actors.bench.cluster;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One member of a three-member benchmark cluster, Weft or Pekko: it hosts the sharded entity type
 * {@value #TYPE} and asks entities by id. Every member runs the same code; the bench's main
 * process is the member that also drives the load.
 */
interface BenchNode extends AutoCloseable {

    /** The entity type's name on both implementations. */
    String TYPE = "bench";

    /** Shards of the type on both implementations (Weft's default). */
    int SHARDS = 100;

    /**
     * Asks an entity; the entity answers with the message it got (the id itself).
     *
     * @param entityId the entity's id
     * @param timeout how long the ask may take
     * @return the reply, or a failure after the timeout
     */
    CompletableFuture<Object> ask(String entityId, Duration timeout);

    /**
     * Members this node sees up.
     *
     * @return the count
     */
    int membersUp();

    /** Leaves nothing behind: stops the cluster member and its actor system, bounded in time. */
    @Override
    void close();
}
