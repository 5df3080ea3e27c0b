/**
 * Weft's actor API: {@link io.weft.actors.ActorSystem}, {@link io.weft.actors.ActorRef},
 * {@link io.weft.actors.ActorContext}, {@link io.weft.actors.Receive} and
 * {@link io.weft.actors.Props}.
 */
package io.weft.actors;
