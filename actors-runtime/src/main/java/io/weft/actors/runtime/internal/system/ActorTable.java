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
     */

    private static final int SHIFT = 10;
    private static final int SIZE = 1 << SHIFT;
    private static final int MASK = SIZE - 1;

    private static final class Chunk {
        final AtomicReferenceArray<Cell<?>> slots = new AtomicReferenceArray<>(SIZE);
        final AtomicInteger retired = new AtomicInteger();
    }

    private final ConcurrentHashMap<Long, Chunk> chunks = new ConcurrentHashMap<>();
    private final AtomicInteger live = new AtomicInteger();

    void put(Cell<?> cell) {
        long id = cell.id();
        chunks.computeIfAbsent(id >>> SHIFT, k -> new Chunk()).slots.set((int) (id & MASK), cell);
        live.incrementAndGet();
    }

    /** Empties the slot of a spawned id; also for ids whose spawn failed. */
    void remove(long id) {
        Long key = id >>> SHIFT;
        Chunk chunk = chunks.computeIfAbsent(key, k -> new Chunk());
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
