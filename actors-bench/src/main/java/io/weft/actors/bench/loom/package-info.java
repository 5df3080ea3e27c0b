/** Benchmarks of thread-based actors: the token ring of Haller and Odersky 2009, §7.1 and memory per idle actor. */
package io.weft.actors.bench.loom;
