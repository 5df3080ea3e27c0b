/**
 * The implementation of Weft's typed streams; not an API. Its VarHandle accessors follow the
 * convention of {@code io.weft.actors.runtime.internal} (see that package's documentation), and
 * its stage frames keep their activation in the runtime's shared
 * {@link io.weft.actors.runtime.internal.ActivationWord}.
 */
package io.weft.actors.stream.internal;
