package io.weft.actors.stream;

import io.weft.actors.stream.internal.StageAccess;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * One {@link ConsumeLoop} per stage class: a hidden class defined from the template's own class
 * file, so each stage class's turns run a loop whose {@code consume} call site has a profile of
 * its own.
 */
final class ConsumeLoops {

    /* design
     * A call site's type profile belongs to the method's bytecode, so one shared loop calls
     * consume on every stage class of the process (megamorphic: a virtual call per item, no
     * inlining). Lookup.defineHiddenClass may define the same bytes any number of times, each a
     * distinct class with its own methods and profiles; the copies are defined with the lookup of
     * this package (the template's), so they may call the protected consume. That is why the
     * template and this class sit, package-private, in the API package and not in `internal`:
     * from there a loop could reach consume only through StageAccess, whose one call site is
     * what the copies replace. One copy per stage
     * class (a ClassValue; the class loader keeps it as long as the stage class). If a copy
     * cannot be defined (the class file not readable), the template itself serves: correct, only
     * shared.
     */

    private static final byte[] TEMPLATE = read();

    private static final ClassValue<StageAccess.Loop> LOOPS = new ClassValue<>() {
        @Override
        protected StageAccess.Loop computeValue(Class<?> stageClass) {
            if (TEMPLATE == null) {
                return new ConsumeLoop();
            }
            try {
                MethodHandles.Lookup copy = MethodHandles.lookup().defineHiddenClass(TEMPLATE, true);
                return (StageAccess.Loop) copy.findConstructor(copy.lookupClass(), MethodType.methodType(void.class))
                        .invoke();
            } catch (Throwable e) {
                return new ConsumeLoop();
            }
        }
    };

    private ConsumeLoops() {
    }

    private static byte[] read() {
        try (InputStream in = ConsumeLoop.class.getResourceAsStream("ConsumeLoop.class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * @param stageClass a stage's class
     * @return the loop for its turns
     */
    static StageAccess.Loop of(Class<?> stageClass) {
        return LOOPS.get(stageClass);
    }
}
