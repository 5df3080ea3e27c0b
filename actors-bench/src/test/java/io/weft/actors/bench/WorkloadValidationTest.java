package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.workload.Scale;
import io.weft.actors.bench.workload.Workload;
import io.weft.actors.bench.workload.Workloads;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every workload computes the right answer on every implementation it supports ({@code Impl.values()},
 * so {@code weft-fair}, all actors on the one-thread fair scheduler, too), at the tiny size (no
 * timing: each run validates its own result and throws if it is wrong; the timeout catches a
 * workload that would hang on an implementation).
 */
class WorkloadValidationTest {

    private static final Map<Impl, Kit> KITS = new ConcurrentHashMap<>();

    static Stream<Arguments> cases() {
        return Workloads.all().stream().flatMap(w -> Stream.of(Impl.values())
                .filter(w::supports)
                .map(i -> Arguments.of(w.name(), i)));
    }

    private static Kit kit(Impl impl) {
        return KITS.computeIfAbsent(impl, Impl::create);
    }

    @AfterAll
    static void closeKits() {
        KITS.values().forEach(Kit::close);
        KITS.clear();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    @Timeout(60)
    void validates(String name, Impl impl) {
        Workload w = Workloads.all().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
        Kit kit = kit(impl);
        if (w.liveActors(Scale.TINY) > kit.maxActors()) {
            return;
        }
        assertDoesNotThrow(() -> w.run(kit, Scale.TINY));
    }
}
