#!/usr/bin/env python3
"""Copies the tag::name[] regions of GuideSnippetsTest into the <!-- snippet: name --> blocks of docs/guide.md. Run from the repository root."""
import re
src=open('actors-testkit/src/test/java/io/weft/actors/testkit/GuideSnippetsTest.java').read().split('\n')
TAG=re.compile(r'^\s*// (tag|end)::([a-z0-9-]+)\[\]\s*$')
regions={}; open_=[]
for line in src:
    m=TAG.match(line)
    if m:
        if m.group(1)=='tag': open_.append(m.group(2)); regions.setdefault(m.group(2),[])
        else: open_.remove(m.group(2))
        continue
    for n in open_: regions[n].append(line)
def dedent(b):
    ind=min(len(l)-len(l.lstrip()) for l in b if l.strip())
    return ''.join(('' if not l.strip() else l[ind:])+'\n' for l in b)
g=open('docs/guide.md').read()
def rep(m):
    return '<!-- snippet: %s -->\n```java\n%s```'%(m.group(1),dedent(regions[m.group(1)]))
g=re.sub(r'<!-- snippet: ([a-z0-9-]+) -->\n```java\n.*?```',rep,g,flags=re.S)
open('docs/guide.md','w').write(g)
