package io.weft.actors.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import io.weft.actors.cluster.ClusterPeerMain;
import io.weft.actors.cluster.ClusterSettings;
import io.weft.actors.cluster.Discovery;
import io.weft.actors.cluster.Member;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Resources;
import io.weft.actors.runtime.testing.Ports;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jgroups.Address;
import org.jgroups.PhysicalAddress;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.dns.DNSResolver;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.dns.DefaultDNSResolver;
import org.jgroups.stack.IpAddress;
import org.jgroups.stack.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The discovery settings: the protocol each builds, bad inputs, and two members found by DNS SRV records. */
class DiscoveryStackTest {

    @RegisterExtension
    final Resources open = new Resources();

    private static List<String> names(List<Protocol> stack) {
        return stack.stream().map(Protocol::getName).toList();
    }

    private static final List<String> ABOVE_DISCOVERY = List.of("MERGE3", "FD_SOCK2", "FD_ALL3", "VERIFY_SUSPECT2", "NAKACK2", "UNICAST3",
            "STABLE", "GMS", "FRAG2");

    private static List<String> stackWith(String discovery) {
        List<String> l = new ArrayList<>(List.of("TCP", discovery));
        l.addAll(ABOVE_DISCOVERY);
        return l;
    }

    @Test
    void seedsBuildTcpPingWithTheSeedsOrThisNodeAlone() throws Exception {
        InetSocketAddress s1 = new InetSocketAddress("127.0.0.1", 7801);
        InetSocketAddress s2 = new InetSocketAddress("127.0.0.1", 7802);
        ClusterSettings withSeeds = ClusterSettings.defaults().withDiscovery(Discovery.seeds(List.of(s1, s2)));
        List<Protocol> stack = Stack.protocols(withSeeds);
        assertEquals(stackWith("TCPPING"), names(stack));
        TCPPING ping = (TCPPING) stack.get(1);
        assertEquals(List.of(new IpAddress(s1), new IpAddress(s2)), List.copyOf(ping.getInitialHosts()));
        assertEquals(0, ping.getPortRange());
        assertEquals(List.of(s1, s2), withSeeds.seeds());
        assertEquals(withSeeds, ClusterSettings.defaults().withSeeds(List.of(s1, s2)), "withSeeds is withDiscovery(Discovery.seeds(...))");

        TCPPING alone = (TCPPING) Stack.protocols(ClusterSettings.defaults()).get(1);
        List<PhysicalAddress> self = List.copyOf(alone.getInitialHosts());
        assertEquals(List.of(new IpAddress("127.0.0.1", 7800)), self, "the defaults: no seeds, this node's own address");
    }

    @Test
    void dnsBuildsDnsPingWithAOrSrvRecords() throws Exception {
        List<Protocol> a = Stack.protocols(ClusterSettings.defaults().withDiscovery(Discovery.dns("shop-cluster.default.svc.cluster.local")));
        assertEquals(stackWith("DNS_PING"), names(a));
        DNS_PING ping = (DNS_PING) a.get(1);
        assertEquals("shop-cluster.default.svc.cluster.local", ping.dnsQuery());
        assertEquals("A", ping.dnsRecordType());

        List<Protocol> srv = Stack.protocols(ClusterSettings.defaults().withDiscovery(Discovery.dnsSrv("_cluster._tcp.shop.default.svc.cluster.local.")));
        DNS_PING srvPing = (DNS_PING) srv.get(1);
        assertEquals("_cluster._tcp.shop.default.svc.cluster.local.", srvPing.dnsQuery());
        assertEquals("SRV", srvPing.dnsRecordType());
        assertTrue(ClusterSettings.defaults().withDiscovery(Discovery.dns("shop")).seeds().isEmpty(), "no static seeds with DNS");
        // what DNS_PING makes at start: a JNDI DNS context (java.naming and jdk.naming.dns are in the module graph)
        new DefaultDNSResolver("com.sun.jndi.dns.DnsContextFactory", "127.0.0.1").close();
    }

    @Test
    void kubernetesWithoutItsJarFailsNamingTheJar() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("tier", "back");
        labels.put("app", "shop");
        Discovery.Kubernetes k = (Discovery.Kubernetes) Discovery.kubernetes("default", labels);
        assertEquals("app=shop,tier=back", k.selector(), "labels as a selector, sorted by key");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Stack.protocols(ClusterSettings.defaults().withDiscovery(k)));
        assertTrue(e.getMessage().contains("org.jgroups.kubernetes:jgroups-kubernetes"), e.getMessage());
        assertTrue(e.getMessage().contains("Discovery.dns"), "names the alternative: " + e.getMessage());
        IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> Stack.kubePing(k, TCPPING.class.getName()));
        assertTrue(wrong.getMessage().contains("could not be set up"), wrong.getMessage());
    }

    @Test
    void badDiscoveryInputsAreRefusedWithTheValueAndTheFix() {
        assertThrows(NullPointerException.class, () -> ClusterSettings.defaults().withDiscovery(null));
        assertThrows(NullPointerException.class, () -> Discovery.seeds(null));
        List<InetSocketAddress> withNull = new ArrayList<>();
        withNull.add(null);
        assertThrows(IllegalArgumentException.class, () -> Discovery.seeds(withNull));
        IllegalArgumentException unresolved = assertThrows(IllegalArgumentException.class,
                () -> Discovery.seeds(List.of(InetSocketAddress.createUnresolved("nowhere.invalid", 7800))));
        assertTrue(unresolved.getMessage().contains("nowhere.invalid"), unresolved.getMessage());

        for (String bad : new String[] {"", " ", "shop cluster.local", "shop..local", "-shop.local", "shop/x", "a".repeat(64) + ".local"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Discovery.dns(bad), bad);
            assertTrue(e.getMessage().startsWith("Discovery.dns"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Discovery.dns(null));
        IllegalArgumentException srvAsA = assertThrows(IllegalArgumentException.class, () -> Discovery.dns("_cluster._tcp.shop.local"));
        assertTrue(srvAsA.getMessage().contains("Discovery.dnsSrv"), srvAsA.getMessage());
        IllegalArgumentException aAsSrv = assertThrows(IllegalArgumentException.class, () -> Discovery.dnsSrv("shop.local"));
        assertTrue(aAsSrv.getMessage().contains("_cluster._tcp.shop.local"), "suggests the SRV form: " + aAsSrv.getMessage());

        for (String ns : new String[] {"", "Default", "my_ns", "-ns", "a".repeat(64)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Discovery.kubernetes(ns, Map.of()), ns);
            assertTrue(e.getMessage().contains("\"" + ns + "\""), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Discovery.kubernetes(null, Map.of()));
        assertThrows(NullPointerException.class, () -> Discovery.kubernetes("default", null));
        for (Map<String, String> labels : List.of(Map.of("app", "a,b"), Map.of("app=x", "y"), Map.of("", "y"), Map.of("app", "two words"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Discovery.kubernetes("default", labels), labels.toString());
            assertTrue(e.getMessage().startsWith("Discovery.kubernetes: the label"), e.getMessage());
        }
    }

    @Test
    void twoMembersFindEachOtherThroughDnsSrvRecords() throws Exception {
        int pa = Ports.free();
        int pb = Ports.free();
        // the DNS server is replaced by a resolver that answers the SRV query with both members
        Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();
        DNSResolver dns = (query, type) -> {
            asked.add(type + " " + query);
            List<Address> l = new ArrayList<>();
            l.add(new IpAddress(new InetSocketAddress("127.0.0.1", pa)));
            l.add(new IpAddress(new InetSocketAddress("127.0.0.1", pb)));
            return l;
        };
        String query = "_cluster._tcp.weft-test.local";
        List<ClusterCore> members = new ArrayList<>();
        for (int port : new int[] {pa, pb}) {
            ActorSystem s = open.keep(ActorSystem.create("d" + port));
            Remoting r = open.keep(Remoting.attach(s, ClusterPeerMain.codec(), RemoteSettings.defaults()));
            ClusterSettings settings = ClusterPeerMain.fast(port, List.of()).withDiscovery(Discovery.dnsSrv(query));
            members.add(open.keep(ClusterCore.start(s, r, settings, stack -> {
                DNS_PING ping = assertInstanceOf(DNS_PING.class, stack.get(1));
                ping.dnsResolver(dns);
            })));
        }
        Set<Member> both = new HashSet<>();
        for (ClusterCore m : members) {
            both.add(m.self());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !(Set.copyOf(members.get(0).members()).equals(both) && Set.copyOf(members.get(1).members()).equals(both))) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        assertEquals(both, Set.copyOf(members.get(0).members()));
        assertEquals(both, Set.copyOf(members.get(1).members()));
        assertEquals(Set.of("SRV " + query), asked, "DNS_PING asked for the SRV records of the query");
    }
}
