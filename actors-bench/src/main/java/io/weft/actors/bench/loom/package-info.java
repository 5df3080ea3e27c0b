/** Benchmarks of thread-based actors: the token ring of seed 000 §7.1 and memory per idle actor. */
package io.weft.actors.bench.loom;
