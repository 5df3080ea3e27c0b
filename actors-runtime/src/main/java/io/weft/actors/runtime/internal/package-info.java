/**
 * The implementation of Weft's runtime; not an API (the module exports it only to Weft's own
 * modules).
 *
 * <h2>Memory-order accessors</h2>
 * Every {@link java.lang.invoke.VarHandle} of this package and of the runtime's other internal
 * packages is used only through small accessor methods next to the field, named after the access
 * mode and the field, in the convention of JCTools:
 * <table>
 *   <caption>Accessor prefixes</caption>
 *   <tr><th>prefix</th><th>access mode</th><th>VarHandle method</th></tr>
 *   <tr><td>{@code lv}</td><td>load volatile</td><td>{@code getVolatile}</td></tr>
 *   <tr><td>{@code la}</td><td>load acquire</td><td>{@code getAcquire}</td></tr>
 *   <tr><td>{@code lo}</td><td>load opaque (no ordering, never cached in a register)</td><td>{@code getOpaque}</td></tr>
 *   <tr><td>{@code sv}</td><td>store volatile</td><td>{@code setVolatile}</td></tr>
 *   <tr><td>{@code so}</td><td>store ordered (release)</td><td>{@code setRelease}</td></tr>
 *   <tr><td>{@code cas}</td><td>compare and set</td><td>{@code compareAndSet}</td></tr>
 *   <tr><td>{@code cae}</td><td>compare and exchange (returns the witness)</td><td>{@code compareAndExchange}</td></tr>
 *   <tr><td>{@code gas}</td><td>get and set</td><td>{@code getAndSet}</td></tr>
 *   <tr><td>{@code gaa}</td><td>get and add</td><td>{@code getAndAdd}</td></tr>
 * </table>
 * For example {@code lvLifecycle()}, {@code casGate(x, expected, next)}, {@code soMini(cell)}.
 * A call site then says which ordering it relies on, and a review of a field's orderings reads
 * one place. A field accessed only as a plain Java {@code volatile} (no VarHandle) is read and
 * written in the language's own syntax. A {@code volatile} field written through a VarHandle may
 * also be read directly as a field, which is a volatile load, where a per-message path runs
 * interpreted or in C1 code and a VarHandle call would cost (the cell's {@code lifecycle} and
 * {@code moveRequest}, {@code ActivationWord}'s {@code active}); the field's comment says so.
 *
 * <p>The activation word every frame shares (actors, stream stages, the calibration probe) is
 * written once, in {@link io.weft.actors.runtime.internal.ActivationWord}, with its named
 * transitions ({@code activateIfIdle}, {@code idleOrReclaim}, ...) and invariants.
 */
package io.weft.actors.runtime.internal;
