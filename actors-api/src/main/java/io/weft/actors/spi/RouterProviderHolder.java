package io.weft.actors.spi;

import java.util.ServiceLoader;

/** Loads the {@link RouterProvider} once, on first use. */
final class RouterProviderHolder {

    static final RouterProvider PROVIDER = ServiceLoader.load(RouterProvider.class, RouterProvider.class.getClassLoader())
            .findFirst()
            .or(() -> ServiceLoader.load(RouterProvider.class).findFirst())
            .orElseThrow(() -> new IllegalStateException("no Weft router runtime found: add io.weft:actors-runtime to the class or module path"));

    private RouterProviderHolder() {
    }
}
