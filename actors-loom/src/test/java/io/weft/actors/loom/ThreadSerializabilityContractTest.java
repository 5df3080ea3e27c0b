package io.weft.actors.loom;

import io.weft.actors.runtime.ContractMatrix.MailboxKind;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.runtime.ContractMatrix.SchedulerKind;
import io.weft.actors.runtime.CoreContract;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The core contract of actors-runtime's SerializabilityContractTest (one handler at a time, every
 * message exactly once, FIFO per sender) for thread-based actors: {@code ContractMatrix#threadCross},
 * a blocking {@code receive} loop on a dedicated platform thread and on a virtual thread, and an
 * event-based actor that switches to a virtual thread, each crossed with every mailbox kind the
 * traffic fits in.
 */
class ThreadSerializabilityContractTest {

    @ParameterizedTest(name = "{0}, {1}, {2}")
    @MethodSource("io.weft.actors.runtime.ContractMatrix#threadCross")
    void oneHandlerAtATimeAndEveryMessageExactlyOnce(SchedulerKind kind, MailboxKind mailbox, Mode mode) throws Exception {
        CoreContract.oneHandlerAtATimeAndEveryMessageExactlyOnce(kind, mailbox, mode);
    }
}
