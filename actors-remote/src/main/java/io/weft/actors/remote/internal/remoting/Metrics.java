package io.weft.actors.remote.internal.remoting;

import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.transport.Lane;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/** The remoting's counters. */
final class Metrics {

    private final LongAdder[] bytesOut = adders(Lane.values().length);
    private final LongAdder[] bytesIn = adders(Lane.values().length);
    private final LongAdder[] msgsOut = adders(Lane.values().length);
    private final LongAdder[] msgsIn = adders(Lane.values().length);
    private final LongAdder[] drops = adders(RemoteMetrics.Drop.values().length);
    final LongAdder quarantined = new LongAdder();

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    void sent(Lane lane, int bytes, int messages) {
        bytesOut[lane.ordinal()].add(bytes);
        msgsOut[lane.ordinal()].add(messages);
    }

    void received(Lane lane, int bytes) {
        bytesIn[lane.ordinal()].add(bytes);
    }

    void receivedMessages(Lane lane, int messages) {
        msgsIn[lane.ordinal()].add(messages);
    }

    void drop(RemoteMetrics.Drop why) {
        drops[why.ordinal()].increment();
    }

    long dropped(RemoteMetrics.Drop why) {
        return drops[why.ordinal()].sum();
    }

    RemoteMetrics view(RemotingCore core) {
        return new RemoteMetrics() {
            @Override
            public long bytesSent(Lane lane) {
                return bytesOut[lane.ordinal()].sum();
            }

            @Override
            public long bytesReceived(Lane lane) {
                return bytesIn[lane.ordinal()].sum();
            }

            @Override
            public long messagesSent(Lane lane) {
                return msgsOut[lane.ordinal()].sum();
            }

            @Override
            public long messagesReceived(Lane lane) {
                return msgsIn[lane.ordinal()].sum();
            }

            @Override
            public int queueDepth(Lane lane) {
                int n = 0;
                for (Association a : core.associations().values()) {
                    n += a.depth(lane);
                }
                return n;
            }

            @Override
            public long dropped(Drop reason) {
                return drops[reason.ordinal()].sum();
            }

            @Override
            public Map<String, Double> phi() {
                Map<String, Double> m = new TreeMap<>();
                long now = System.currentTimeMillis();
                for (Association a : core.associations().values()) {
                    PhiAccrual d = a.detector;
                    if (d != null) {
                        m.put(a.hostPort, d.phi(now));
                    }
                }
                return m;
            }

            @Override
            public int watchedByPeers() {
                return core.watchedByPeers();
            }

            @Override
            public long quarantined() {
                return quarantined.sum();
            }
        };
    }
}
