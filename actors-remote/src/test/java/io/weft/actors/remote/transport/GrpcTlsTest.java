package io.weft.actors.remote.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS and mutual TLS of the gRPC engine, with self-signed certificates made by keytool in the test. */
class GrpcTlsTest {

    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    Path dir;

    private final List<Transport> open = new ArrayList<>();

    @AfterEach
    void closeAll() {
        open.forEach(Transport::close);
    }

    private KeyStore keyStore(String name) throws Exception {
        Path file = dir.resolve(name + ".p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool made a key pair");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, PASSWORD);
        }
        return ks;
    }

    private static GrpcSettings.Tls tls(KeyStore own, boolean mutual, KeyStore... trusted) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(own, PASSWORD);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (KeyStore t : trusted) {
            String alias = t.aliases().nextElement();
            Certificate c = t.getCertificate(alias);
            trust.setCertificateEntry(alias, c);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return new GrpcSettings.Tls(kmf.getKeyManagers(), tmf.getTrustManagers(), mutual);
    }

    private Transport open(GrpcSettings.Tls tls) {
        Transport t = Transport.grpc(GrpcSettings.defaults().withTls(tls));
        open.add(t);
        return t;
    }

    private static InboundHandler into(BlockingQueue<byte[]> q) {
        return new InboundHandler() {
            @Override
            public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                q.add(frame);
            }

            @Override
            public void onRefused(InboundLink from, String reason) {
            }

            @Override
            public void onClosed(InboundLink link, Throwable cause) {
            }
        };
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    void mutualTlsCarriesFramesBetweenTrustedPeers() throws Exception {
        KeyStore server = keyStore("server");
        KeyStore client = keyStore("client");
        BlockingQueue<byte[]> got = new ArrayBlockingQueue<>(10);
        InetSocketAddress at = open(tls(server, true, client)).bind(loopback(), into(got));
        OutboundLink link = open(tls(client, true, server)).connect(at, e -> { });
        link.send(Lane.ORDINARY, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, got.poll(30, TimeUnit.SECONDS));
    }

    @Test
    void mutualTlsRefusesAClientWhoseCertificateIsNotTrusted() throws Exception {
        KeyStore server = keyStore("server");
        KeyStore client = keyStore("client");
        KeyStore stranger = keyStore("stranger");
        BlockingQueue<byte[]> got = new ArrayBlockingQueue<>(10);
        InetSocketAddress at = open(tls(server, true, client)).bind(loopback(), into(got));
        CountDownLatch lost = new CountDownLatch(1);
        OutboundLink link = open(tls(stranger, true, server)).connect(at, e -> lost.countDown());
        try {
            link.send(Lane.ORDINARY, new byte[] {9});
        } catch (IllegalStateException e) {
            // refused before the send: fine
        }
        assertTrue(lost.await(30, TimeUnit.SECONDS), "the untrusted client's link is lost");
        assertNull(got.poll(1, TimeUnit.SECONDS), "nothing from the untrusted client was delivered");
    }

    @Test
    void aPlaintextClientCannotTalkToATlsServer() throws Exception {
        KeyStore server = keyStore("server");
        BlockingQueue<byte[]> got = new ArrayBlockingQueue<>(10);
        InetSocketAddress at = open(tls(server, false, server)).bind(loopback(), into(got));
        Transport plain = Transport.grpc(GrpcSettings.defaults());
        open.add(plain);
        CountDownLatch lost = new CountDownLatch(1);
        OutboundLink link = plain.connect(at, e -> lost.countDown());
        try {
            link.send(Lane.ORDINARY, new byte[] {9});
        } catch (IllegalStateException e) {
            // refused before the send: fine
        }
        assertTrue(lost.await(30, TimeUnit.SECONDS));
        assertEquals(0, got.size());
    }
}
