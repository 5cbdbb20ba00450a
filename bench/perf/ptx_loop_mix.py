#!/usr/bin/env python3
import re,sys
# Instruction mix of the PTX loop bodies (label ... backward branch to it).
for f in sys.argv[1:]:
    lines=[l.strip() for l in open(f)]
    labels={l[:-1]:i for i,l in enumerate(lines) if re.match(r'^\$L__BB\w+:$',l)}
    for i,l in enumerate(lines):
        m=re.search(r'bra(?:\.uni)?\s+(\$L__BB\w+);',l)
        if m and m.group(1) in labels and labels[m.group(1)]<i:
            body=lines[labels[m.group(1)]:i+1]
            c={}
            for b in body:
                if not b or b.startswith('$') or b.startswith('//') or b.startswith('{') or b.startswith('}'): continue
                w=b.split()[1] if b.startswith('@') else b.split()[0]
                if w.startswith('%') : continue
                w=w.rstrip(';')
                c[w]=c.get(w,0)+1
            mma=c.get('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32',0)
            tot=sum(c.values())
            print(f"{f} loop@{labels[m.group(1)]}: {tot} instrs, mma {mma}; top:", ", ".join(f"{k} {v}" for k,v in sorted(c.items(),key=lambda x:-x[1])[:12]))
