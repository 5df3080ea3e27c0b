package io.weft.actors.loom.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The JDK's one-shot delimited continuations ({@code jdk.internal.vm.Continuation}, the mechanism
 * under virtual threads), reached through method handles: the class is internal to
 * {@code java.base}, so Weft compiles without it and uses it only when the JVM was started with
 * {@code --add-exports java.base/jdk.internal.vm=io.weft.actors.loom} ({@code ALL-UNNAMED} on the
 * class path).
 */
final class JdkContinuations {

    /* design
     * The handles are static finals of exact types, so the JIT inlines invokeExact as a direct
     * call. Looked up once, in the static initializer; if the package is not exported to this
     * module the lookup fails with IllegalAccessException and `unavailable` says why (the factory
     * logs it and falls back to a virtual thread per actor). One scope for all of Weft's bodies:
     * a yield in a body returns to the carrier that ran it (ContinuationScheduler).
     */

    /** Why continuations cannot be used here, or null if they can. */
    static final String UNAVAILABLE;

    private static final Object SCOPE;
    /** (Runnable) Object: a new continuation in Weft's scope. */
    private static final MethodHandle NEW;
    /** (Object) void: runs or resumes a continuation until it yields or ends. */
    private static final MethodHandle RUN;
    /** () boolean: yields the current continuation of Weft's scope. */
    private static final MethodHandle YIELD;
    /** (Object) boolean: whether a continuation has ended. */
    private static final MethodHandle IS_DONE;

    static {
        Object scope = null;
        MethodHandle newCont = null;
        MethodHandle run = null;
        MethodHandle yield = null;
        MethodHandle isDone = null;
        String why = null;
        try {
            Class<?> scopeClass = Class.forName("jdk.internal.vm.ContinuationScope");
            Class<?> contClass = Class.forName("jdk.internal.vm.Continuation");
            MethodHandles.Lookup l = MethodHandles.lookup();
            scope = l.findConstructor(scopeClass, MethodType.methodType(void.class, String.class)).invoke("weft-thread-actors");
            newCont = MethodHandles.insertArguments(
                    l.findConstructor(contClass, MethodType.methodType(void.class, scopeClass, Runnable.class)), 0, scope)
                    .asType(MethodType.methodType(Object.class, Runnable.class));
            run = l.findVirtual(contClass, "run", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, Object.class));
            yield = MethodHandles.insertArguments(
                    l.findStatic(contClass, "yield", MethodType.methodType(boolean.class, scopeClass)), 0, scope);
            isDone = l.findVirtual(contClass, "isDone", MethodType.methodType(boolean.class))
                    .asType(MethodType.methodType(boolean.class, Object.class));
        } catch (IllegalAccessException e) {
            why = "java.base does not export jdk.internal.vm to " + describe(JdkContinuations.class.getModule())
                    + " (start the JVM with --add-exports java.base/jdk.internal.vm="
                    + (JdkContinuations.class.getModule().isNamed() ? "io.weft.actors.loom" : "ALL-UNNAMED") + ")";
        } catch (Throwable e) {
            why = "this JVM has no usable jdk.internal.vm.Continuation (" + e + ")";
        }
        SCOPE = scope;
        NEW = newCont;
        RUN = run;
        YIELD = yield;
        IS_DONE = isDone;
        UNAVAILABLE = why;
    }

    private JdkContinuations() {
    }

    private static String describe(Module m) {
        return m.isNamed() ? "module " + m.getName() : "the class path (unnamed module)";
    }

    /** @return Weft's continuation scope, for messages */
    static Object scope() {
        return SCOPE;
    }

    static Object create(Runnable body) {
        try {
            return (Object) NEW.invokeExact(body);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static void run(Object continuation) {
        try {
            RUN.invokeExact(continuation);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Yields the running body to its carrier.
     *
     * @throws IllegalStateException "Pinned: MONITOR" (or NATIVE, CRITICAL_SECTION) if a frame of
     *     the body pins it to the carrier
     */
    static void yieldBody() {
        try {
            boolean unused = (boolean) YIELD.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean isDone(Object continuation) {
        try {
            return (boolean) IS_DONE.invokeExact(continuation);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
