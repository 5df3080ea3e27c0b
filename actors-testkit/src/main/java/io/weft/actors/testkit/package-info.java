/**
 * The Weft test kit: a JUnit 5 extension that gives each test its own
 * {@link io.weft.actors.ActorSystem}, {@link io.weft.actors.testkit.TestProbe}s that stand in for
 * actors, and the {@link io.weft.actors.testkit.DeterministicScheduler} with its
 * {@link io.weft.actors.testkit.ManualClock}.
 */
package io.weft.actors.testkit;
