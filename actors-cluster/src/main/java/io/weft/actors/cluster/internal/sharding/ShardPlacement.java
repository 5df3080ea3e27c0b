package io.weft.actors.cluster.internal.sharding;

import io.weft.actors.cluster.Member;
import java.util.List;

/** Which shard an id belongs to, and which member owns a shard. */
public final class ShardPlacement {

    /* design
     * shard(id) = mix(id.hashCode()) mod shards. String.hashCode is specified by the JLS, so every
     * JVM computes the same shard; the mix (the 64-bit finalizer of MurmurHash3) spreads ids that
     * differ in their last character over all shards.
     *
     * owner(type, shard, hosts) is rendezvous (highest-random-weight) hashing: each host gets the
     * weight mix(hash(type, shard) ^ hash(member)) and the heaviest wins; ties (never seen with 64
     * bits) go to the lower member. Thaler and Ravishankar 1998 (the HRW mapping): it needs no coordinator and
     * no shared table, every member computes the same owner from the same host list, and when a
     * host joins or leaves only the shards it wins or held move (about 1/n of them), the others
     * stay where they are.
     *
     * Invariant: both functions are pure; the hash of a member uses its text form
     * (system@host:port#incarnation), so a restarted member (new incarnation) gets other shards.
     */

    private ShardPlacement() {
    }

    /**
     * The shard of an id.
     *
     * @param entityId the id
     * @param shards the shard count, at least 1
     * @return 0 to shards - 1
     */
    public static int shardOf(String entityId, int shards) {
        return (int) Long.remainderUnsigned(mix(entityId.hashCode()), shards);
    }

    /**
     * The owner of a shard among hosts.
     *
     * @param type the entity type
     * @param shard the shard
     * @param hosts the members that host shards (UP, not leaving), in any order
     * @return the owner, or null if there is no host
     */
    public static Member owner(String type, int shard, List<Member> hosts) {
        long key = mix(type.hashCode() * 31L + shard);
        Member best = null;
        long bestWeight = 0;
        for (Member m : hosts) {
            long w = mix(key ^ mix(m.toString().hashCode()) ^ m.incarnation());
            if (best == null || Long.compareUnsigned(w, bestWeight) > 0 || (w == bestWeight && m.compareTo(best) < 0)) {
                best = m;
                bestWeight = w;
            }
        }
        return best;
    }

    /** MurmurHash3's fmix64. */
    static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
