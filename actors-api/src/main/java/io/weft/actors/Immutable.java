package io.weft.actors;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a message type deeply immutable: {@link MessagePolicy#VERIFY_IMMUTABLE} trusts it
 * without inspecting its fields, and {@link MessagePolicy#COPY} passes it by reference. The
 * declaration is the author's promise; nothing checks it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Immutable {
}
