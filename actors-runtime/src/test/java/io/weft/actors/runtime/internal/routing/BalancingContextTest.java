package io.weft.actors.runtime.internal.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A balancing routee's context must pass every method of {@link ActorContext} to the routee's own
 * context: a method added to the interface (a default one too) that {@link BalancingContext} does
 * not override would silently skip the runtime's implementation for balancing routees.
 */
class BalancingContextTest {

    @Test
    void everyMethodOfActorContextIsDelegated() throws NoSuchMethodException {
        List<String> missing = new ArrayList<>();
        for (Method m : ActorContext.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Method impl = BalancingContext.class.getMethod(m.getName(), m.getParameterTypes());
            if (impl.getDeclaringClass() != BalancingContext.class) {
                missing.add(m.toString());
            }
        }
        assertEquals(List.of(), missing, "BalancingContext must override (and delegate) these");
    }
}
