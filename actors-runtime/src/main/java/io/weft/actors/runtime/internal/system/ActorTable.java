package io.weft.actors.runtime.internal.system;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import io.weft.actors.runtime.internal.cell.Cell;

/**
 * Every live actor of a system, by id: chunks of 1024 slots indexed by the id's low bits, so an
 * actor costs one reference slot (4 bytes) here instead of a hash-map node.
 */
final class ActorTable {

    /* design
     * Ids are handed out in increasing order and never reused, so each slot is filled once and
     * emptied once. A chunk counts emptied slots and is dropped when all 1024 have been emptied;
     * it can never be dropped while an id of its range is still to be spawned.
     *
     * Spawns take ids in order and actors mostly end in about that order, so put and remove each
     * keep the chunk they used last (`newest`, `lastRemoved`) and look in the map (a boxed key and
     * a hash lookup) only when the id is in another chunk. A kept chunk may have been dropped from
     * the map meanwhile; then every id of its range has been removed, so no put or remove of that
     * range comes again and the stale reference is never used for a slot.
     */

    private static final int SHIFT = 10;
    private static final int SIZE = 1 << SHIFT;
    private static final int MASK = SIZE - 1;

    private static final class Chunk {
        final long key;
        final AtomicReferenceArray<Cell<?>> slots = new AtomicReferenceArray<>(SIZE);
        final AtomicInteger retired = new AtomicInteger();

        Chunk(long key) {
            this.key = key;
        }
    }

    private final ConcurrentHashMap<Long, Chunk> chunks = new ConcurrentHashMap<>();
    private final AtomicInteger live = new AtomicInteger();
    /** The chunk put used last (design block); null before the first put. */
    private volatile Chunk newest;
    /** The chunk remove used last (design block); null before the first remove. */
    private volatile Chunk lastRemoved;

    private Chunk chunk(long key) {
        return chunks.computeIfAbsent(key, Chunk::new);
    }

    void put(Cell<?> cell) {
        long id = cell.id();
        long key = id >>> SHIFT;
        Chunk c = newest;
        if (c == null || c.key != key) {
            c = chunk(key);
            newest = c;
        }
        c.slots.set((int) (id & MASK), cell);
        live.incrementAndGet();
    }

    /** Empties the slot of a spawned id; also for ids whose spawn failed. */
    void remove(long id) {
        long key = id >>> SHIFT;
        Chunk chunk = lastRemoved;
        if (chunk == null || chunk.key != key) {
            chunk = chunk(key);
            lastRemoved = chunk;
        }
        if (chunk.slots.getAndSet((int) (id & MASK), null) != null) {
            live.decrementAndGet();
        }
        if (chunk.retired.incrementAndGet() == SIZE) {
            chunks.remove(key, chunk);
        }
    }

    Cell<?> get(long id) {
        Chunk chunk = chunks.get(id >>> SHIFT);
        return chunk == null ? null : chunk.slots.get((int) (id & MASK));
    }

    int size() {
        return live.get();
    }

    void forEach(Consumer<Cell<?>> action) {
        for (Chunk chunk : chunks.values()) {
            for (int i = 0; i < SIZE; i++) {
                Cell<?> c = chunk.slots.get(i);
                if (c != null) {
                    action.accept(c);
                }
            }
        }
    }
}
