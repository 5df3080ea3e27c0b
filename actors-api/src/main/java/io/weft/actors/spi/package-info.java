/**
 * The pluggable scheduling SPI of Prokopec 2016, §3–4: a {@link io.weft.actors.spi.Scheduler} decides
 * when an actor's {@link io.weft.actors.spi.Frame} runs, on which thread, for how long
 * ({@link io.weft.actors.spi.SchedulerState}), and in which order its non-empty channels are
 * drained ({@link io.weft.actors.spi.Scheduler#newPendingQueue()}).
 *
 * <p>The runtime keeps the safety properties whatever the scheduler does: at most one handler of an
 * actor runs at a time (serializability), and every delivered message stays queued until handled or
 * dead-lettered. A scheduler decides progress: a correct one eventually runs every frame it was
 * asked to {@linkplain io.weft.actors.spi.Scheduler#schedule(io.weft.actors.spi.Frame) schedule}.
 */
package io.weft.actors.spi;
