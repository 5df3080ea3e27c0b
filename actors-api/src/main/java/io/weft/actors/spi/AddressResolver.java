package io.weft.actors.spi;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves addresses a system does not own (those of remote actors): a remoting layer installs one
 * per system, and {@link ActorSystem#resolve(String)} consults it for any address that names
 * another system or a host and port.
 */
@FunctionalInterface
public interface AddressResolver {

    /**
     * Returns a ref for a foreign address.
     *
     * @param address the address, not null
     * @return the ref, not null
     * @throws IllegalArgumentException if the address is malformed or refused
     */
    ActorRef<Object> resolve(String address);

    /**
     * Installs the resolver for a system, replacing any earlier one.
     *
     * @param system the system
     * @param resolver its resolver
     */
    static void install(ActorSystem system, AddressResolver resolver) {
        Installed.MAP.put(Objects.requireNonNull(system, "system"), Objects.requireNonNull(resolver, "resolver"));
    }

    /**
     * Removes a system's resolver, if it is {@code resolver}.
     *
     * @param system the system
     * @param resolver the resolver installed earlier
     */
    static void uninstall(ActorSystem system, AddressResolver resolver) {
        Installed.MAP.remove(system, resolver);
    }

    /**
     * The resolver installed for a system.
     *
     * @param system the system
     * @return the resolver, or null if none is installed
     */
    static AddressResolver of(ActorSystem system) {
        return Installed.MAP.get(system);
    }

    /** Holds the installed resolvers. */
    final class Installed {
        private static final Map<ActorSystem, AddressResolver> MAP = new ConcurrentHashMap<>();

        private Installed() {
        }
    }
}
