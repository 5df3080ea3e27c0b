/**
 * Weft's remote actors. This module holds the safe binary codec: an explicit registry of stable
 * numeric type ids ({@link io.weft.actors.remote.CodecRegistry}) that encodes records, enums,
 * sealed interfaces' records, strings, primitives' boxes, {@code byte[]}, lists, sets, maps,
 * optionals and actor refs, and decodes nothing it was not told about.
 */
module io.weft.actors.remote {
    requires transitive io.weft.actors.api;

    exports io.weft.actors.remote;
}
