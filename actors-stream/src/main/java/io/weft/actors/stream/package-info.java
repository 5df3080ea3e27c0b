/**
 * Typed streaming on actors (Rinaldi et al. 2020): {@link io.weft.actors.stream.Stage}s with one input type and
 * typed bounded input queues, composed by {@link io.weft.actors.stream.Pipeline} and replicated by
 * {@link io.weft.actors.stream.Farm}; consecutive farms are connected without a router (the second
 * farm's {@link io.weft.actors.stream.Policy} runs inside the emitting stages of the first); flow
 * control by queue length ({@code emitIfBelow}); {@link java.util.concurrent.Flow} adapters in
 * {@link io.weft.actors.stream.FlowStreams}.
 */
package io.weft.actors.stream;
