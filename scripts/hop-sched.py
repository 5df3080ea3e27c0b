#!/usr/bin/env python3
"""Where the slow idle hops of `ingress --only hop` waited, from the kernel's scheduler events.

usage:
  perf record -k mono -e sched:sched_switch -e sched:sched_waking -a -o hop.data -- \\
      java -Xms2g -Xmx2g -jar JAR ingress --only hop -r 7 -w 2 --hop-slow 300000 > hop.txt
  perf script -i hop.data -F comm,pid,tid,cpu,time,event,trace --ns > hop.sched
  scripts/hop-sched.py hop.sched hop.txt

`--hop-slow NS` prints the JVM's pid, every hop slower than NS with the System.nanoTime() of its
tell, and each round's span; on Linux that is CLOCK_MONOTONIC, the clock of `perf record -k mono`. For each slow
hop the script finds the first wake-up of a pool worker of that peer after the tell (Weft's
`weft-ingress-worker-*`, Pekko's `ingress-pekko.actor.default-dispatcher-*`), when that worker got
a CPU, and what ran on that CPU until then. A slow hop is counted under
  main    the woken worker waited on the CPU of the JVM's main thread, which spins for the hop;
  jvm     it waited behind another thread of the same JVM (JIT compiler, GC, the other peer's threads);
  other   it waited behind another process;
  sender  most of the time passed before the wake-up (the telling thread itself was off its CPU);
  turn    most of the time passed after the worker got its CPU;
  awake   no worker was woken (one was already running).
Per round it also prints the CPU time (ms) the main thread, the JVM's other threads and other
processes got on the two CPUs.
"""
import bisect
import collections
import re
import sys

EVENT = re.compile(r'^\s*(.+?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\w+):\s+(.*)$')
SWITCH = re.compile(r'prev_comm=(.+?) prev_pid=(\d+) .*==> next_comm=(.+?) next_pid=(\d+)')
WAKING = re.compile(r'comm=(.+?) pid=(\d+) ')
WORKERS = {'weft': 'weft-ingress-wo', 'pekko': 'ingress-pekko.a'}


def main(sched_file, hop_file):
    events = []
    for line in open(sched_file):
        m = EVENT.match(line)
        if m:
            comm, pid, tid, cpu, t, name, rest = m.groups()
            events.append((int(round(float(t) * 1e9)), int(pid), int(tid), int(cpu), comm, name, rest))
    events.sort()
    times = [e[0] for e in events]
    rounds, slow, jvm = [], collections.defaultdict(list), None
    for line in open(hop_file):
        f = line.split()
        if line.startswith('hop pid'):
            jvm = int(f[2])
        elif line.startswith('hop round'):
            rounds.append((f[2], int(f[3]), int(f[5]), int(f[7])))
        elif line.startswith('slow hop'):
            slow[(f[2], int(f[4]))].append((int(f[8]), int(f[10])))
    if jvm is None:
        jvm = busiest_jvm(events, rounds)
    ours = {e[2] for e in events if e[1] == jvm}
    kinds = ['main', 'jvm', 'other', 'sender', 'turn', 'awake']
    print('%-6s %2s %5s  %s | cpu ms: %6s %6s %6s' % ('peer', 'r', 'slow', ' '.join('%6s' % k for k in kinds),
                                                      'main', 'jvm', 'others'))
    totals = collections.defaultdict(collections.Counter)
    for peer, r, start, end in rounds:
        cpu, since = collections.Counter(), {}
        for t, pid, tid, c, comm, name, rest in events[bisect.bisect_left(times, start):bisect.bisect_right(times, end)]:
            if name == 'sched_switch':
                m = SWITCH.search(rest)
                prev, prev_comm = int(m.group(2)), m.group(1)
                ran = t - since.get(c, start)
                since[c] = t
                if prev == 0:
                    continue
                cpu['main' if prev in ours and prev_comm == 'java' else 'jvm' if prev in ours else 'others'] += ran
        counts = collections.Counter()
        for sent, ns in slow.get((peer, r), []):
            counts[classify(events, times, ours, peer, sent, ns)] += 1
        totals[peer].update(counts)
        totals[peer]['slow'] += sum(counts.values())
        print('%-6s %2d %5d  %s | cpu ms: %6.0f %6.0f %6.0f' % (peer, r, sum(counts.values()),
              ' '.join('%6d' % counts[k] for k in kinds), cpu['main'] / 1e6, cpu['jvm'] / 1e6, cpu['others'] / 1e6))
    for peer, counts in totals.items():
        print('%-6s all %5d  %s' % (peer, counts['slow'], ' '.join('%6d' % counts[k] for k in kinds)))


def busiest_jvm(events, rounds):
    """Output without `hop pid` (other JVMs may run the same benchmark): the JVM whose Weft
    workers switched in most often inside the rounds."""
    spans = sorted((start, end) for _, _, start, end in rounds)
    counts = collections.Counter()
    for t, pid, tid, c, comm, name, rest in events:
        if name == 'sched_switch' and comm.startswith(WORKERS['weft']):
            i = bisect.bisect_right(spans, (t, float('inf'))) - 1
            if i >= 0 and spans[i][0] <= t <= spans[i][1]:
                counts[pid] += 1
    return counts.most_common(1)[0][0]


def classify(events, times, ours, peer, sent, ns):
    """Where one slow hop spent most of its time."""
    woken = None
    for t, pid, tid, c, comm, name, rest in events[bisect.bisect_left(times, sent):bisect.bisect_right(times, sent + ns)]:
        if name == 'sched_waking' and woken is None:
            m = WAKING.search(rest)
            if m and int(m.group(2)) in ours and m.group(1).startswith(WORKERS[peer]):
                woken = (t, int(m.group(2)))
        elif name == 'sched_switch' and woken is not None:
            m = SWITCH.search(rest)
            if int(m.group(4)) == woken[1]:
                if woken[0] - sent > ns / 2:
                    return 'sender'
                if t - woken[0] < ns / 2:
                    return 'turn'
                prev = int(m.group(2))
                return 'main' if prev in ours and m.group(1) == 'java' else 'jvm' if prev in ours else 'other'
    return 'awake' if woken is None else 'turn'


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
