/**
 * Weft's runtime: event-based actors on a ForkJoinPool, JCTools MPSC mailboxes, the activation
 * protocol of Prokopec 2016 and the built-in schedulers. Provides the {@link io.weft.actors.ActorSystem}
 * implementation through {@link io.weft.actors.spi.ActorSystemProvider} and exports no package to
 * users: its implementation packages are exported only to Weft's loom and stream modules, each
 * only the packages that module uses.
 *
 * <p>The qualified export names modules built after this one, hence the suppressed
 * "module not found" lint.
 */
@SuppressWarnings("module")
module io.weft.actors.runtime {
    requires transitive io.weft.actors.api;
    requires org.jctools.core;
    requires org.slf4j;
    requires jdk.jfr;

    exports io.weft.actors.runtime.internal to io.weft.actors.loom, io.weft.actors.stream;
    exports io.weft.actors.runtime.internal.cell to io.weft.actors.loom;
    exports io.weft.actors.runtime.internal.schedule to io.weft.actors.loom;
    exports io.weft.actors.runtime.internal.system to io.weft.actors.loom, io.weft.actors.stream;

    uses io.weft.actors.runtime.internal.schedule.ThreadSchedulerFactory;
    provides io.weft.actors.spi.ActorSystemProvider with io.weft.actors.runtime.internal.system.WeftSystemProvider;
    provides io.weft.actors.spi.RouterProvider with io.weft.actors.runtime.internal.routing.WeftRouterProvider;
}
