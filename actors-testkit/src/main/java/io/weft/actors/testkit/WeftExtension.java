package io.weft.actors.testkit;

import io.weft.actors.ActorSystem;
import java.lang.reflect.Parameter;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives each test method its own {@link ActorSystem} and closes it after
 * the test. Declare parameters of type {@link ActorSystem} (the test's system) and
 * {@link TestProbe} (a new probe in that system) on a test method:
 *
 * <pre>{@code
 * @ExtendWith(WeftExtension.class)
 * class GreeterTest {
 *     @Test
 *     void greets(ActorSystem system, TestProbe<String> probe) { ... }
 * }
 * }</pre>
 *
 * <p>The system is named after the test method and uses two ForkJoin workers.
 */
public final class WeftExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(WeftExtension.class);

    /** Creates the extension; JUnit does this through {@code @ExtendWith}. */
    public WeftExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        return type == ActorSystem.class || type == TestProbe.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Parameter p = parameterContext.getParameter();
        ActorSystem system = systemFor(extensionContext);
        if (p.getType() == ActorSystem.class) {
            return system;
        }
        return TestProbe.create(system);
    }

    private static ActorSystem systemFor(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        return store.getOrComputeIfAbsent("system", key -> new ClosingSystem(ActorSystem.builder()
                .name(systemName(context))
                .parallelism(2)
                .build()), ClosingSystem.class).system;
    }

    private static String systemName(ExtensionContext context) {
        String n = context.getTestMethod().map(m -> m.getName()).orElse("test");
        return n.replaceAll("[^A-Za-z0-9_-]", "-");
    }

    /** Closes the system when JUnit closes the test's store. */
    private record ClosingSystem(ActorSystem system) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            system.close();
        }
    }
}
