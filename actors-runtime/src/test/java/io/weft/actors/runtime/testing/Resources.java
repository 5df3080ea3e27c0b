package io.weft.actors.runtime.testing;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test opens (systems, remotings, clusters, peer JVMs) and closes after it, newest first,
 * even when the test fails. Register it on an instance field:
 *
 * <pre>{@code
 * @RegisterExtension
 * final Resources open = new Resources();
 * ...
 * ActorSystem a = open.keep(ActorSystem.create("alpha"));
 * }</pre>
 *
 * Every resource is closed even if an earlier close throws; the first failure is rethrown with the
 * others suppressed.
 */
public final class Resources implements AfterEachCallback {

    private final List<AutoCloseable> open = new ArrayList<>();

    /** Creates an empty set of resources. */
    public Resources() {
    }

    /**
     * Closes {@code c} after the test (after the resources kept after it).
     *
     * @param c what to close
     * @param <T> its type
     * @return {@code c}
     */
    public <T extends AutoCloseable> T keep(T c) {
        open.add(c);
        return c;
    }

    /**
     * Closes {@code c} now (if kept, it is no longer closed after the test).
     *
     * @param c what to close
     * @throws Exception if its close fails
     */
    public void closeNow(AutoCloseable c) throws Exception {
        open.remove(c);
        c.close();
    }

    /**
     * Closes everything kept, newest first.
     *
     * @throws Exception the first close that failed, the later ones suppressed in it
     */
    public void closeAll() throws Exception {
        Exception first = null;
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        closeAll();
    }
}
