package io.weft.actors.remote.internal.remoting;

/**
 * A parsed actor address {@code weft://system@host:port/name#id}; host is null for a local-form
 * address {@code weft://system/name#id}.
 */
record Address(String system, String host, int port, String name, long id) {

    static Address parse(String a) {
        if (a == null || a.length() > 1024 || !a.startsWith("weft://")) {
            throw new IllegalArgumentException("malformed actor address \"" + clip(a) + "\"; expected weft://system@host:port/name#id");
        }
        int slash = a.indexOf('/', 7);
        int hash = a.lastIndexOf('#');
        if (slash < 0 || hash < slash) {
            throw new IllegalArgumentException("malformed actor address \"" + clip(a) + "\"; expected weft://system@host:port/name#id");
        }
        String authority = a.substring(7, slash);
        String name = a.substring(slash + 1, hash);
        long id;
        try {
            id = Long.parseLong(a, hash + 1, a.length(), 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed actor id in address \"" + clip(a) + "\"", e);
        }
        int at = authority.indexOf('@');
        if (at < 0) {
            return new Address(authority, null, 0, name, id);
        }
        int colon = authority.lastIndexOf(':');
        if (colon < at) {
            throw new IllegalArgumentException("actor address \"" + clip(a) + "\" has no port after its host");
        }
        int port;
        try {
            port = Integer.parseInt(authority, colon + 1, authority.length(), 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed port in actor address \"" + clip(a) + "\"", e);
        }
        if (port <= 0 || port > 65535 || at == 0 || colon == at + 1) {
            throw new IllegalArgumentException("actor address \"" + clip(a) + "\" needs a system, a host and a port 1-65535");
        }
        return new Address(authority.substring(0, at), authority.substring(at + 1, colon), port, name, id);
    }

    String hostPort() {
        return host + ":" + port;
    }

    String localForm() {
        return "weft://" + system + "/" + name + "#" + id;
    }

    static String full(String system, String hostPort, String name, long id) {
        return "weft://" + system + "@" + hostPort + "/" + name + "#" + id;
    }

    static String clip(String s) {
        return s == null ? "null" : s.length() <= 120 ? s : s.substring(0, 120) + "...";
    }
}
