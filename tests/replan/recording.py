#!/usr/bin/env python3
"""Writes a recorded world by hand, as the recorder would (docs/record.md's conventions):
every collective call bracketed by its two anchors, its schedule from `goal gen`, p2p and
calc between them. usage: recording.py GOAL P [COLL=ALGO ...] > rec.goal
The program (every rank): calc, allreduce (1 KiB), a ring exchange, calc, bcast from rank 1
(2 KiB), allreduce (1 KiB), an allreduce (64 B) on the even ranks' communicator (P >= 4),
calc. COLL=ALGO picks the algorithm a collective's calls are recorded with."""
import re, subprocess, sys

goal, P = sys.argv[1], int(sys.argv[2])
algos = {'allreduce': 'allreduce_recdoub', 'bcast': 'bcast_binomial'}
algos.update(dict(a.split('=', 1) for a in sys.argv[3:]))
ranks = [[] for _ in range(P)]   # per rank: lines (actions and requ)
last = [None] * P                # per rank: the program's last action
count = [0] * P
tag = [10]                       # recorded calls' tags start above the p2p tag


def label(r):
    count[r] += 1
    return 'a%d' % count[r]


def act(r, text, deps=None, name=None):
    l = name or label(r)
    ranks[r].append('%s: %s;' % (l, text))
    for d in (deps if deps is not None else [last[r]] if last[r] else []):
        ranks[r].append('requ %s -> %s;' % (l, d))
    return l


def step(r, text):
    last[r] = act(r, text)


def schedules(algo, m, size, root):
    out = subprocess.run([goal, 'gen', algo, '-p', str(m), '--size', str(size), '--type', 'int8',
                          '--root', str(max(root, 0)), '--dialect', 'paper'], check=True, capture_output=True, text=True).stdout
    blocks = re.findall(r'rank #(\d+) \{\n(.*?)\n\}', out, re.S)
    return [b[1].split('\n') for b in sorted(blocks, key=lambda b: int(b[0]))]


def coll(coll, members, comm, num, size, root):
    t = tag[0]
    tag[0] += 1
    for i, r in enumerate(members):
        start = act(r, 'nop', name='%s_c%d_n%d_b%d_r%s_i%d' % (coll, comm, num, size, 'm1' if root < 0 else root, i))
        names, deps, srcs = {}, [], set()
        for line in schedules(algos[coll], len(members), size, root)[i]:
            line = line.strip().rstrip(';')
            m = re.match(r'(i?requ) (\S+) -> (\S+)$', line)
            if m:
                deps.append((m.group(1), m.group(2), m.group(3)))
                continue
            m = re.match(r'(\S+): (.*)$', line) or re.match(r'()(.*)$', line)
            body = m.group(2)
            pm = re.match(r'(send|recv) (\S+) (to|from) (\d+)$', body)
            if pm:
                body = '%s %s %s %d tag %d' % (pm.group(1), pm.group(2), pm.group(3), members[int(pm.group(4))], t)
            names[m.group(1) or 'u%d' % len(names)] = act(r, body, [])
        for kind, a, b in deps:
            ranks[r].append('%s %s -> %s;' % (kind, names[a], names[b]))
            srcs.add(b)
        dependent = {a for _, a, _ in deps}
        for n in names:
            if n not in dependent:
                ranks[r].append('requ %s -> %s;' % (names[n], start))
        end = '%s_c%d_n%d_end' % (coll, comm, num)
        ranks[r].append('%s: nop;' % end)
        leaves = [names[n] for n in names if n not in srcs] or [start]
        for l in leaves:
            ranks[r].append('requ %s -> %s;' % (end, l))
        last[r] = end


world = list(range(P))
for r in world: step(r, 'calc 2000')
coll('allreduce', world, 0, 0, 1024, -1)
for r in world:
    s = act(r, 'send 0,512 to %d tag 1' % ((r + 1) % P))
    v = act(r, 'recv 0,512 from %d tag 1' % ((r - 1) % P))
    last[r] = act(r, 'nop', [s, v])
    step(r, 'calc 5000')
coll('bcast', world, 0, 1, 2048, 1 % P)
coll('allreduce', world, 0, 2, 1024, -1)
if P >= 4:
    coll('allreduce', world[::2], 1, 0, 64, -1)
for r in world: step(r, 'calc 1000')
print('num_ranks %d;' % P)
for r in world:
    print('rank #%d {' % r)
    for line in ranks[r]:
        print('  ' + line)
    print('}')
