#!/usr/bin/env python3
"""Lists the import arrows between the runtime's internal packages, lowest layer first, and flags
every arrow that points up the layering of docs/design.md (exit status 1 if there is one).

usage: scripts/package-arrows.py [-v]   (-v: name the importing files of each arrow)
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'actors-runtime', 'src', 'main', 'java')
BASE = 'io.weft.actors.runtime.internal'
LAYERS = ['', 'telemetry', 'mailbox', 'schedule', 'cell', 'supervision', 'system']


def layer(pkg):
    rest = pkg[len(BASE):].lstrip('.')
    return rest.split('.')[0] if rest else ''


def main():
    verbose = '-v' in sys.argv
    arrows = {}
    for dirpath, _, files in os.walk(os.path.join(ROOT, *BASE.split('.'))):
        for f in files:
            if not f.endswith('.java'):
                continue
            text = open(os.path.join(dirpath, f)).read()
            m = re.search(r'^package ([\w.]+);', text, re.M)
            src = layer(m.group(1))
            used = set(re.findall(r'\b' + re.escape(BASE) + r'((?:\.[a-z]\w*)*)\.[A-Z]', text))
            for u in used:
                dst = layer(BASE + u)
                if dst != src:
                    arrows.setdefault((src, dst), set()).add(f)
    up = 0
    for (src, dst), fs in sorted(arrows.items(), key=lambda a: (LAYERS.index(a[0][0]), LAYERS.index(a[0][1]))):
        bad = LAYERS.index(dst) > LAYERS.index(src)
        up += bad
        print('%-12s -> %-12s %3d file(s)%s%s' % (src or '(root)', dst or '(root)', len(fs), '   UP' if bad else '',
                                               ('  ' + ', '.join(sorted(fs))) if verbose or bad else ''))
    print('%d arrows, %d pointing up' % (len(arrows), up))
    return 1 if up else 0


if __name__ == '__main__':
    sys.exit(main())
