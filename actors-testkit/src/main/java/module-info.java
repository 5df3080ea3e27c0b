/**
 * Testing Weft actors: {@link io.weft.actors.testkit.WeftExtension} (a system per test),
 * {@link io.weft.actors.testkit.TestProbe}, and {@link io.weft.actors.testkit.DeterministicScheduler},
 * which runs react actors on the test thread in a seeded order and explores interleavings.
 */
module io.weft.actors.testkit {
    requires transitive io.weft.actors.api;
    requires transitive org.junit.jupiter.api;

    exports io.weft.actors.testkit;
}
