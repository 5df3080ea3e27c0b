package io.weft.actors.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one sharded entity type; {@link #defaults()} changed with {@code with...} copies.
 * Immutable. The shard count must be the same on every member.
 *
 * @param shards how many shards the type's ids are spread over (at least 1); fixed for the type
 * @param passivateAfter an entity that has received no message for this long is stopped (it
 *     starts again on its next message); {@link Duration#ZERO} never passivates
 * @param bufferSize how many messages a shard keeps while it moves, or while its entity is
 *     stopping; beyond it messages go to dead letters and are counted
 */
public record ShardingSettings(int shards, Duration passivateAfter, int bufferSize) {

    /**
     * Checks the values.
     *
     * @param shards the shard count
     * @param passivateAfter the idle time before passivation
     * @param bufferSize the buffer bound
     */
    public ShardingSettings {
        Objects.requireNonNull(passivateAfter, "sharding settings: passivateAfter is null; give Duration.ZERO to never passivate");
        if (shards < 1) {
            throw new IllegalArgumentException("sharding settings: shards " + shards + " must be at least 1 (the default is 100)");
        }
        if (passivateAfter.isNegative()) {
            throw new IllegalArgumentException("sharding settings: passivateAfter " + passivateAfter
                    + " is negative; give a positive duration, or Duration.ZERO to never passivate");
        }
        if (bufferSize < 0) {
            throw new IllegalArgumentException("sharding settings: bufferSize " + bufferSize
                    + " is negative; give 0 or more (the default is 1,000)");
        }
    }

    /**
     * The defaults: 100 shards, passivation after 2 minutes idle, 1,000 messages kept per shard
     * while it moves.
     *
     * @return the defaults
     */
    public static ShardingSettings defaults() {
        return new ShardingSettings(100, Duration.ofMinutes(2), 1_000);
    }

    /**
     * A copy with another shard count.
     *
     * @param count at least 1, the same on every member
     * @return the copy
     */
    public ShardingSettings withShards(int count) {
        return new ShardingSettings(count, passivateAfter, bufferSize);
    }

    /**
     * A copy with another idle time before passivation.
     *
     * @param idle positive, or {@link Duration#ZERO} for never
     * @return the copy
     */
    public ShardingSettings withPassivateAfter(Duration idle) {
        return new ShardingSettings(shards, idle, bufferSize);
    }

    /**
     * A copy with another buffer bound.
     *
     * @param size 0 or more messages per shard
     * @return the copy
     */
    public ShardingSettings withBufferSize(int size) {
        return new ShardingSettings(shards, passivateAfter, size);
    }
}
