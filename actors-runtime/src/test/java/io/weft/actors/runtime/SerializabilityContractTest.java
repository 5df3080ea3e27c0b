package io.weft.actors.runtime;

import io.weft.actors.runtime.ContractMatrix.MailboxKind;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.runtime.ContractMatrix.SchedulerKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Serializability (Prokopec 2016, Theorem 1) and exactly-once delivery, one contract for every
 * scheduler ({@link CoreContract}): many threads send to one actor at once; the actor detects any
 * concurrent entry into its handler and checks every sender's sequence, so a lost, duplicated or
 * reordered message fails the test. It draws three slices of {@link ContractMatrix}: every scheduler
 * crossed with every mailbox kind the traffic fits in ({@code coreCross}); every scheduler with every
 * other mode it runs ({@code modeCross}: {@code become}, which the runtime delivers on a path of its
 * own, an {@code Actor} subclass, blocking {@code receive} on a dedicated thread); and every
 * scheduler crossed with the small mailbox kinds, where every message is handled or counted as
 * dropped ({@code dropCross}).
 */
class SerializabilityContractTest {

    @ParameterizedTest(name = "{0}, {1}, {2}")
    @MethodSource({"io.weft.actors.runtime.ContractMatrix#coreCross", "io.weft.actors.runtime.ContractMatrix#modeCross"})
    void oneHandlerAtATimeAndEveryMessageExactlyOnce(SchedulerKind kind, MailboxKind mailbox, Mode mode) throws Exception {
        CoreContract.oneHandlerAtATimeAndEveryMessageExactlyOnce(kind, mailbox, mode);
    }

    @ParameterizedTest(name = "{0}, {1}, {2}")
    @MethodSource("io.weft.actors.runtime.ContractMatrix#dropCross")
    void everyMessageHandledOrCountedAsDropped(SchedulerKind kind, MailboxKind mailbox, Mode mode) throws Exception {
        CoreContract.everyMessageHandledOrCountedAsDropped(kind, mailbox, mode);
    }
}
