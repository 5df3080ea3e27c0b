package io.weft.actors.cluster;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How a node finds the other members when it joins: static seeds (JGroups' TCPPING), DNS
 * (DNS_PING) or the Kubernetes API (KUBE_PING, from the separate jar
 * {@code org.jgroups.kubernetes:jgroups-kubernetes}). Set with
 * {@link ClusterSettings#withDiscovery(Discovery)}; immutable, checked when made.
 *
 * <pre>{@code
 * Discovery.seeds(List.of(new InetSocketAddress("10.0.0.5", 7800), new InetSocketAddress("10.0.0.6", 7800)));
 * Discovery.dns("shop-cluster.default.svc.cluster.local");          // A records, every node on the same cluster port
 * Discovery.dnsSrv("_cluster._tcp.shop.default.svc.cluster.local"); // SRV records carry the ports
 * Discovery.kubernetes("default", Map.of("app", "shop"));           // pods by label, needs jgroups-kubernetes
 * }</pre>
 */
public sealed interface Discovery permits Discovery.Seeds, Discovery.Dns, Discovery.Kubernetes {

    /**
     * Static seeds: TCPPING's initial hosts. List the same seeds on every node; a node's own
     * address may be among them. With no seeds the node only finds itself (it starts a cluster
     * alone, and others find it through their seeds).
     *
     * @param addresses the seed nodes' JGroups addresses (host and cluster port), resolved
     * @return the discovery
     * @throws IllegalArgumentException if an address is null or unresolved
     */
    static Discovery seeds(List<InetSocketAddress> addresses) {
        return new Seeds(addresses);
    }

    /**
     * DNS address records (JGroups' DNS_PING with record type A): every address the name
     * resolves to is asked on this node's cluster port, so all nodes must use the same port.
     * In Kubernetes, the name of a headless service selecting the cluster's pods does this
     * without the Kubernetes API.
     *
     * @param query the host name to resolve, such as {@code shop-cluster.default.svc.cluster.local}
     * @return the discovery
     * @throws IllegalArgumentException if the name is blank or not a DNS name
     */
    static Discovery dns(String query) {
        return new Dns(query, false);
    }

    /**
     * DNS service records (JGroups' DNS_PING with record type SRV): each record gives a host and
     * a port, so nodes may use different cluster ports.
     *
     * @param query the service name, starting with {@code _service._proto.}, such as
     *     {@code _cluster._tcp.shop.default.svc.cluster.local}
     * @return the discovery
     * @throws IllegalArgumentException if the name is blank, not a DNS name, or does not start
     *     with an underscore label
     */
    static Discovery dnsSrv(String query) {
        return new Dns(query, true);
    }

    /**
     * The Kubernetes API (JGroups' KUBE_PING): the pods of a namespace that carry the labels,
     * each asked on this node's cluster port. Needs the jar
     * {@code org.jgroups.kubernetes:jgroups-kubernetes} (a release for JGroups 5) on the class
     * or module path and a service account allowed to list pods; without the jar, joining fails
     * with an error naming it. {@link #dns(String)} with a headless service needs neither.
     *
     * @param namespace the pods' namespace, a DNS label such as {@code default}
     * @param labels the labels the pods must carry (all of them); empty selects every pod of the namespace
     * @return the discovery
     * @throws IllegalArgumentException if the namespace is not a DNS label, or a label key or value
     *     is null or holds a comma, an equals sign or a space
     */
    static Discovery kubernetes(String namespace, Map<String, String> labels) {
        return new Kubernetes(namespace, labels);
    }

    /**
     * Static seeds.
     *
     * @param addresses the seeds' JGroups addresses
     */
    record Seeds(List<InetSocketAddress> addresses) implements Discovery {

        /**
         * Checks the addresses.
         *
         * @param addresses the seeds' JGroups addresses
         */
        public Seeds {
            Objects.requireNonNull(addresses, "cluster discovery: the seed list is null; pass List.of() for none");
            for (int i = 0; i < addresses.size(); i++) {
                InetSocketAddress a = addresses.get(i);
                if (a == null) {
                    throw new IllegalArgumentException("cluster discovery: seed " + i + " of " + addresses + " is null");
                }
                if (a.isUnresolved()) {
                    throw new IllegalArgumentException("cluster discovery: seed " + a + " is unresolved (its host name did not resolve); "
                            + "give a resolvable host or an IP address");
                }
            }
            addresses = List.copyOf(addresses);
        }
    }

    /**
     * DNS records.
     *
     * @param query the name to resolve
     * @param srv whether SRV records (with ports) are asked for, rather than A records
     */
    record Dns(String query, boolean srv) implements Discovery {

        private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?");

        /**
         * Checks the name.
         *
         * @param query the name to resolve
         * @param srv whether SRV records are asked for
         */
        public Dns {
            String kind = srv ? "Discovery.dnsSrv" : "Discovery.dns";
            if (query == null || query.isBlank()) {
                throw new IllegalArgumentException(kind + ": the DNS name \"" + query + "\" is null or blank; give a name such as "
                        + (srv ? "\"_cluster._tcp.shop.default.svc.cluster.local\"" : "\"shop-cluster.default.svc.cluster.local\""));
            }
            String name = query.endsWith(".") ? query.substring(0, query.length() - 1) : query;
            if (name.length() > 253) {
                throw new IllegalArgumentException(kind + ": the DNS name \"" + query + "\" is longer than 253 characters");
            }
            for (String label : name.split("\\.", -1)) {
                if (!LABEL.matcher(label).matches()) {
                    throw new IllegalArgumentException(kind + ": \"" + query + "\" is not a DNS name: the label \"" + label
                            + "\" must be 1 to 63 letters, digits, hyphens or underscores, not starting or ending with a hyphen");
                }
            }
            if (srv && !name.startsWith("_")) {
                throw new IllegalArgumentException("Discovery.dnsSrv: \"" + query + "\" is not a service name: SRV names start with "
                        + "_service._proto. (such as \"_cluster._tcp." + name + "\"); for address records use Discovery.dns");
            }
            if (!srv && name.startsWith("_")) {
                throw new IllegalArgumentException("Discovery.dns: \"" + query + "\" looks like a service (SRV) name; "
                        + "use Discovery.dnsSrv for it, or give the host name for address records");
            }
        }
    }

    /**
     * Kubernetes pods.
     *
     * @param namespace the namespace
     * @param labels the labels, sorted by key
     */
    record Kubernetes(String namespace, Map<String, String> labels) implements Discovery {

        private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

        /**
         * Checks the namespace and the labels.
         *
         * @param namespace the namespace
         * @param labels the labels
         */
        public Kubernetes {
            if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
                throw new IllegalArgumentException("Discovery.kubernetes: the namespace \"" + namespace + "\" is not a Kubernetes "
                        + "namespace name (1 to 63 lower-case letters, digits or hyphens, such as \"default\")");
            }
            Objects.requireNonNull(labels, "Discovery.kubernetes: the labels are null; pass Map.of() to select every pod of the namespace");
            TreeMap<String, String> sorted = new TreeMap<>();
            for (Map.Entry<String, String> e : labels.entrySet()) {
                String k = e.getKey();
                String v = e.getValue();
                if (k == null || k.isEmpty() || v == null || bad(k) || bad(v)) {
                    throw new IllegalArgumentException("Discovery.kubernetes: the label " + k + "=" + v + " is not valid: keys are "
                            + "non-empty, and neither keys nor values may be null or hold a comma, an equals sign or a space");
                }
                sorted.put(k, v);
            }
            labels = java.util.Collections.unmodifiableMap(sorted);
        }

        private static boolean bad(String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == ',' || c == '=' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The labels as a Kubernetes label selector, as KUBE_PING takes them.
         *
         * @return {@code key=value} pairs joined by commas, sorted by key; empty for none
         */
        public String selector() {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, String> e : labels.entrySet()) {
                if (!sb.isEmpty()) {
                    sb.append(',');
                }
                sb.append(e.getKey()).append('=').append(e.getValue());
            }
            return sb.toString();
        }
    }
}
